package io.courier.coordinator.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.courier.coordinator.protocol.ClientCommand;
import io.courier.coordinator.protocol.CoflowRegistered;
import io.courier.coordinator.protocol.CoordinatorMessage;
import io.courier.coordinator.protocol.DecisionUpdate;
import io.courier.coordinator.protocol.EpochReport;
import io.courier.coordinator.protocol.FlowDecision;
import io.courier.coordinator.protocol.FlowReport;
import io.courier.coordinator.protocol.NodeRegistered;
import io.courier.coordinator.protocol.NodeReport;
import java.util.Arrays;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Pins the wire table's ids and the byte encoding of a few messages. If this fails, an encoding or an id
 * changed: proxies and coordinators of different builds would no longer understand each other. Change the
 * expected bytes only together with a documented protocol change (docs/coordinator.md).
 */
@Timeout(30)
class WireGoldenBytesTest {
    private static ActorTestKit kit;
    private static ActorRef<ClientCommand> ref;
    private static WireCodec codec;

    @BeforeAll
    static void start() {
        kit = ActorTestKit.create();
        ref = kit.<ClientCommand>createTestProbe().getRef();
        codec = new WireCodec(new WireCodecTest.FixedRefCodec(ref), 4096);
    }

    @AfterAll
    static void stop() {
        kit.shutdownTestKit();
    }

    @Test
    void idsAreFixed() {
        int[] ids = {WireTable.NODE_INFO, WireTable.REGISTER_NODE, WireTable.NODE_REGISTERED, WireTable.NOT_REGISTERED,
            WireTable.FLOW_REPORT, WireTable.EPOCH_REPORT, WireTable.REPORT_ACK, WireTable.COFLOW_REGISTERED,
            WireTable.COFLOW_COMPLETED, WireTable.FLOW_DECISION, WireTable.DECISION_UPDATE, WireTable.LOOKUP_PROXY,
            WireTable.PROXY_LOCATION, WireTable.NODE_REPORT};
        for (int i = 0; i < ids.length; i++) {
            assertEquals(100 + i, ids[i]);
        }
        assertEquals(47_100, KryoWireSerializer.IDENTIFIER);
    }

    @Test
    void nodeRegistered() {
        check("68046e6d2d3103632d310a", new NodeRegistered("nm-1", "c-1", 10));
    }

    @Test
    void coflowRegistered() {
        check("6d036a2d31000000000000084004484947480a", new CoflowRegistered("j-1", 3.0, "HIGH", 10));
    }

    @Test
    void epochReport() {
        check("6b01610701036a2d3101610162e807050100000000000029400003726566",
                new EpochReport("a", 7, Arrays.asList(new FlowReport("j-1", "a", "b", 1000, 5, -1, 12.5, false)),
                        ref));
    }

    @Test
    void decisionUpdate() {
        check("70030576617279730001036a2d310161016200000000000000410000",
                new DecisionUpdate(3, "varys", false, Arrays.asList(new FlowDecision("j-1", "a", "b", 131072.0, 0, 0))));
    }

    /** Added in session 6 at the next free id (113); the ids and bytes above did not change. */
    @Test
    void nodeReport() {
        check("73016107640111036a2d310162e807050c00", new NodeReport("a", 7, 100, Arrays.asList(new FlowReport("j-1", "a", "b", 1000, 5, -1, 12.0,
                false)), null));
    }

    /** Kryo writes doubles little-endian: 3.0 = 0x4008000000000000 appears as 0000000000000840. */
    private static void check(String expectedHex, CoordinatorMessage m) {
        byte[] bytes = codec.encode(m);
        assertEquals(expectedHex, hex(bytes), "encoding of " + m);
        assertEquals(m, codec.decode(bytes));
    }

    private static String hex(byte[] b) {
        StringBuilder s = new StringBuilder();
        for (byte x : b) {
            s.append(String.format("%02x", x & 0xff));
        }
        return s.toString();
    }
}
