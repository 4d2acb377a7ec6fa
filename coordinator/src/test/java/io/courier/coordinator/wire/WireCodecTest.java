package io.courier.coordinator.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.courier.coordinator.protocol.ClientCommand;
import io.courier.coordinator.protocol.CoflowCompleted;
import io.courier.coordinator.protocol.CoflowRegistered;
import io.courier.coordinator.protocol.CoordinatorMessage;
import io.courier.coordinator.protocol.DecisionUpdate;
import io.courier.coordinator.protocol.EpochReport;
import io.courier.coordinator.protocol.FlowDecision;
import io.courier.coordinator.protocol.FlowReport;
import io.courier.coordinator.protocol.LookupProxy;
import io.courier.coordinator.protocol.NodeInfo;
import io.courier.coordinator.protocol.NodeRegistered;
import io.courier.coordinator.protocol.NodeReport;
import io.courier.coordinator.protocol.NotRegistered;
import io.courier.coordinator.protocol.ProxyLocation;
import io.courier.coordinator.protocol.RegisterNode;
import io.courier.coordinator.protocol.ReportAck;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Round trips of every wire message, and every way bad bytes or bad messages are refused. */
@Timeout(30)
class WireCodecTest {
    private static ActorTestKit kit;
    static ActorRef<ClientCommand> ref;
    private static WireCodec codec;

    @BeforeAll
    static void start() {
        kit = ActorTestKit.create();
        TestProbe<ClientCommand> probe = kit.createTestProbe();
        ref = probe.getRef();
        codec = new WireCodec(new FixedRefCodec(ref), 4096);
    }

    @AfterAll
    static void stop() {
        kit.shutdownTestKit();
    }

    static List<CoordinatorMessage> samples() {
        NodeInfo n = new NodeInfo("nm-1", "host1:13562", "host1:13563", 125_000_000L, 0);
        FlowReport r1 = new FlowReport("job_1_0001", "nm-1", "nm-2", 1000, 500, -1, -1, false);
        FlowReport r2 = new FlowReport("job_1_0002", "nm-1", "nm-3", 7, 0, 7, 12.5, true);
        FlowDecision d = new FlowDecision("job_1_0001", "nm-1", "nm-2", 2.5e7, 0, 1);
        return Arrays.<CoordinatorMessage>asList(
                new RegisterNode(n, ref),
                new NodeRegistered("nm-1", "c-1", 10),
                new NotRegistered("nm-1"),
                new EpochReport("nm-1", 42, Arrays.asList(r1, r2), ref),
                new EpochReport("nm-1", 0, Collections.<FlowReport>emptyList(), ref),
                new ReportAck(42, Arrays.asList("job_9")),
                new CoflowRegistered("job_1_0001", Double.NaN, "VERY_HIGH", 1_700_000_000_000L),
                new CoflowRegistered("job_1_0002", 3.0, null, 0),
                new CoflowCompleted("job_1_0001"),
                new DecisionUpdate(7, "varys", false, Arrays.asList(d)),
                new LookupProxy("host2:13562", ref),
                new ProxyLocation("host2:13562", "host2:13563"),
                new ProxyLocation("host9:13562", ""),
                // The compact report: sender rows, a receiver row, a row naming neither end, a self flow; whole
                // bytes/s rates (the compact form carries no fractions); with and without the reply reference.
                new NodeReport("nm-1", 42, 100, Arrays.asList(r1,
                        new FlowReport("job_1_0002", "nm-1", "nm-3", 7, 0, 7, 12.0, true),
                        new FlowReport("job_1_0003", "nm-4", "nm-1", 1L << 40, 3, -1, 1.25e9, false),
                        new FlowReport("job_1_0003", "nm-5", "nm-6", 0, 0, 0, 0, false),
                        new FlowReport("job_1_0004", "nm-1", "nm-1", 5, 6, 100, -1, false)), null),
                new NodeReport("nm-1", 0, 0, Collections.<FlowReport>emptyList(), ref));
    }

    @Test
    void theCompactReportRoundsRatesToWholeBytesPerSecondAndRefusesUnknownFlags() {
        NodeReport m = new NodeReport("a", 1, 100, Arrays.asList(new FlowReport("j", "a", "b", 1, 2, -1, 12.5, false)),
                null);
        NodeReport back = (NodeReport) codec.decode(codec.encode(m));
        assertEquals(13.0, back.flows().get(0).measuredRate(), 0.0);
        byte[] b = codec.encode(m);
        // id(1) "a"(2) epoch(1) heartbeat(1) count(1), then the row's flags byte.
        assertEquals(1 | 16, b[6]);
        b[6] = (byte) 0x40;
        WireFormatException e = assertThrows(WireFormatException.class, () -> codec.decode(b));
        assertTrue(e.getMessage().contains("unknown flags 0x40"), e.getMessage());
    }

    @Test
    void everyMessageRoundTrips() {
        for (CoordinatorMessage m : samples()) {
            assertEquals(m, codec.decode(codec.encode(m)), "round trip of " + m);
        }
    }

    @Test
    void aTooLargeMessageIsRefusedWhenEncoding() {
        List<FlowReport> rows = new ArrayList<FlowReport>();
        for (int i = 0; i < 500; i++) {
            rows.add(new FlowReport("job_1_0001", "nm-1", "nm-" + i, i, i, -1, -1, false));
        }
        WireFormatException e = assertThrows(WireFormatException.class,
                () -> codec.encode(new EpochReport("nm-1", 1, rows, ref)));
        assertTrue(e.getMessage().contains("4096-byte frame limit"), e.getMessage());
    }

    @Test
    void anOversizedFrameIsRefusedBeforeKryoReadsIt() {
        WireFormatException e = assertThrows(WireFormatException.class, () -> codec.decode(new byte[4097]));
        assertTrue(e.getMessage().contains("exceeds the limit of 4096"), e.getMessage());
    }

    @Test
    void emptyTruncatedTrailingAndGarbageFramesAreRefused() {
        assertThrows(WireFormatException.class, () -> codec.decode(new byte[0]));
        byte[] good = codec.encode(new NodeRegistered("nm-1", "c-1", 10));
        byte[] truncated = Arrays.copyOf(good, good.length - 2);
        WireFormatException t = assertThrows(WireFormatException.class, () -> codec.decode(truncated));
        assertTrue(t.getMessage().startsWith("malformed frame"), t.getMessage());
        byte[] trailing = Arrays.copyOf(good, good.length + 1);
        WireFormatException tr = assertThrows(WireFormatException.class, () -> codec.decode(trailing));
        assertTrue(tr.getMessage().contains("trailing"), tr.getMessage());
        Random rnd = new Random(7);
        for (int i = 0; i < 2000; i++) {
            byte[] junk = new byte[1 + rnd.nextInt(200)];
            rnd.nextBytes(junk);
            try {
                Object o = codec.decode(junk);
                assertTrue(o instanceof CoordinatorMessage); // vanishingly unlikely, but valid if it happens
            } catch (WireFormatException expected) {
                // refused with a message; nothing else may escape
            }
        }
        assertEquals(new NodeRegistered("nm-1", "c-1", 10), codec.decode(good), "codec still works after junk");
    }

    @Test
    void aHugeDeclaredLengthIsRefusedWithoutAllocating() {
        // NodeRegistered id (102 + 2 = 104 as a varint), then a string length of 2^31-1 with 3 bytes behind it.
        byte[] bytes = {104, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x07, 'a', 'b', 'c'};
        WireFormatException e = assertThrows(WireFormatException.class, () -> codec.decode(bytes));
        assertTrue(e.getMessage().contains("exceeds the 3 bytes left"), e.getMessage());
    }

    @Test
    void anUnknownClassIdIsRefused() {
        byte[] bytes = {(byte) (99 + 2), 0};
        WireFormatException e = assertThrows(WireFormatException.class, () -> codec.decode(bytes));
        // Refused by the codec's own class-id check, before Kryo looks the id up.
        assertTrue(e.getMessage().contains("class id 99, which is not a Courier wire message"), e.getMessage());
        // Kryo's own built-in ids (e.g. String = 1) decode to something that is not a wire message.
        byte[] string = {3, (byte) 0x81, 'x'};
        assertThrows(WireFormatException.class, () -> codec.decode(string));
    }

    /** A wire-marked class that is not in the table. */
    static final class Unregistered implements CoordinatorMessage {
    }

    @Test
    void anUnregisteredClassIsRefusedWhenEncoding() {
        WireFormatException e = assertThrows(WireFormatException.class, () -> codec.encode(new Unregistered()));
        assertTrue(e.getMessage().contains("Class is not registered"), e.getMessage());
        WireFormatException notWire = assertThrows(WireFormatException.class, () -> codec.encode("hello"));
        assertTrue(notWire.getMessage().contains("not a Courier wire message"), notWire.getMessage());
        assertArrayEquals(codec.encode(new NotRegistered("x")), codec.encode(new NotRegistered("x")));
    }

    @Test
    void badValuesInsideAWellFormedFrameAreRefused() {
        // A FlowReport with a negative byte count cannot be built; encode a valid one and corrupt the count.
        NotRegistered ok = new NotRegistered("a");
        byte[] b = codec.encode(ok);
        b[1] = 0; // string length 0: an empty node id
        byte[] emptyId = Arrays.copyOf(b, 2);
        WireFormatException e = assertThrows(WireFormatException.class, () -> codec.decode(emptyId));
        assertTrue(e.getMessage().contains("node id must be a non-empty string"), e.getMessage());
    }

    @Test
    void aFrameNamingAClassOrAKryoTypeIsRefusedBeforeKryoReadsADeclaredLength() {
        // Found by WireDecodeFuzzTest: class id 1 (a class by NAME) followed by a name whose varint length says
        // ~80 million characters; Kryo allocated 160 MB for these 33 bytes before failing.
        byte[] byName = {0x01, 0x7e, (byte) 0xfe, (byte) 0xfe, (byte) 0xfe, 0x4d, (byte) 0xfe, (byte) 0xfe,
            (byte) 0xfe, (byte) 0xfe, (byte) 0xfe, (byte) 0xfe, (byte) 0xfe, (byte) 0xfe, (byte) 0xfe, (byte) 0xfe,
            (byte) 0xfe, (byte) 0xfe, (byte) 0xfe, (byte) 0xfe, (byte) 0xfe, (byte) 0xfe, (byte) 0xfe, (byte) 0xfe,
            (byte) 0xfe, (byte) 0xfe, (byte) 0xfe, (byte) 0xfe, (byte) 0xfe, (byte) 0xfe, 0x71, 0x0b, 0x68};
        // Kryo's own String registration (id 1 + 2), with a declared length far beyond the frame.
        byte[] kryoString = {0x03, (byte) 0x81, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x07};
        for (byte[] frame : new byte[][] {byName, kryoString, {0x00}}) {
            WireFormatException e = assertThrows(WireFormatException.class, () -> codec.decode(frame));
            assertTrue(e.getMessage().contains("not a Courier wire message"), e.getMessage());
        }
    }

    /** Maps the one test reference to a fixed string, so encodings do not depend on the test system's address. */
    static final class FixedRefCodec implements ActorRefCodec {
        private final ActorRef<?> ref;

        FixedRefCodec(ActorRef<?> ref) {
            this.ref = ref;
        }

        @Override
        public String toWire(ActorRef<?> r) {
            if (!r.equals(ref)) {
                throw new IllegalArgumentException("unexpected ref " + r);
            }
            return "ref";
        }

        @Override
        @SuppressWarnings("unchecked")
        public <T> ActorRef<T> fromWire(String path) {
            if (!"ref".equals(path)) {
                throw new IllegalArgumentException("unexpected path " + path);
            }
            return (ActorRef<T>) ref;
        }
    }
}
