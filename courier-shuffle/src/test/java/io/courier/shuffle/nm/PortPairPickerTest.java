package io.courier.shuffle.nm;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PortPairPickerTest {
    @Test
    @Timeout(30)
    void bothPortsOfThePairCanBeBound() throws Exception {
        for (int offset : new int[] {1, 3}) {
            int p = PortPairPicker.pick(offset);
            assertTrue(p > 0 && p + offset <= 65535);
            try (ServerSocket a = new ServerSocket(); ServerSocket b = new ServerSocket()) {
                a.bind(new InetSocketAddress(p));
                b.bind(new InetSocketAddress(p + offset));
                assertFalse(PortPairPicker.isFree(p));
            }
        }
    }

    @Test
    @Timeout(30)
    void thePairLiesOutsideTheEphemeralRange() throws Exception {
        EphemeralPortRange linux = new EphemeralPortRange(32768, 60999);
        Random random = new Random(7);
        for (int i = 0; i < 20; i++) {
            int p = PortPairPicker.pick(1, linux, random);
            assertTrue(p > 60999 && p + 1 <= 65535, "picked " + p);
        }
        // A range reaching the top leaves the ports below it.
        EphemeralPortRange toTheTop = new EphemeralPortRange(40000, 65535);
        for (int i = 0; i < 20; i++) {
            int p = PortPairPicker.pick(2, toTheTop, random);
            assertTrue(p >= PortPairPicker.LOWEST_BELOW && p + 2 < 40000, "picked " + p);
        }
        EphemeralPortRange machine = EphemeralPortRange.ofThisMachine();
        if (java.nio.file.Files.exists(EphemeralPortRange.LINUX_RANGE)) {
            assertNotNull(machine, "Linux's ephemeral port range was not read");
        }
        if (machine != null) {
            int p = PortPairPicker.pick(1);
            assertFalse(machine.contains(p) || machine.contains(p + 1), "picked " + p + " inside " + machine.low()
                    + "-" + machine.high());
        }
    }

    @Test
    @Timeout(30)
    void offsetZeroIsOneFreePort() throws Exception {
        int p = PortPairPicker.pick(0, new EphemeralPortRange(32768, 60999), new Random(3));
        assertTrue(p > 60999 && PortPairPicker.isFree(p), "picked " + p);
    }

    @Test
    void spansLeaveTheRangeOrAreNone() {
        assertArrayEquals(new int[] {61000, 65534},
                PortPairPicker.spanOutside(new EphemeralPortRange(32768, 60999), 1));
        assertArrayEquals(new int[] {10000, 19997},
                PortPairPicker.spanOutside(new EphemeralPortRange(20000, 65535), 2));
        assertNull(PortPairPicker.spanOutside(new EphemeralPortRange(1024, 65535), 1));
    }

    @Test
    void aTakenPortInsideTheRangeIsExplainedToTheOperator() {
        EphemeralPortRange linux = new EphemeralPortRange(32768, 60999);
        java.net.BindException taken = new java.net.BindException("Address already in use");
        String hint = CourierShuffleHandler.ephemeralHint(42634, linux, new java.io.IOException("start", taken));
        assertTrue(hint.contains("ephemeral range 32768-60999"), hint);
        assertTrue(CourierShuffleHandler.ephemeralHint(13563, linux, taken).isEmpty());
        assertTrue(CourierShuffleHandler.ephemeralHint(42634, null, taken).isEmpty());
        assertTrue(CourierShuffleHandler.ephemeralHint(42634, linux, new IllegalStateException("other")).isEmpty());
    }

    @Test
    void theRangeIsParsedAsTheKernelWritesIt() {
        EphemeralPortRange r = EphemeralPortRange.parse("32768\t60999\n");
        assertTrue(r.low() == 32768 && r.high() == 60999);
        assertThrows(IllegalArgumentException.class, () -> EphemeralPortRange.parse("32768"));
        assertThrows(IllegalArgumentException.class, () -> EphemeralPortRange.parse("a b"));
        assertThrows(IllegalArgumentException.class, () -> EphemeralPortRange.parse("60999 32768"));
    }
}
