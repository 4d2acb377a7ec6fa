package io.courier.shuffle.nm;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.net.ServerSocket;

import static org.junit.jupiter.api.Assertions.assertFalse;
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
}
