package io.courier.coordinator.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.courier.coordinator.Coordinator;
import io.courier.coordinator.TestSupport;
import io.courier.coordinator.protocol.ClientCommand;
import io.courier.coordinator.protocol.CoordinatorCommand;
import io.courier.coordinator.protocol.NodeInfo;
import io.courier.coordinator.protocol.NodeRegistered;
import io.courier.coordinator.protocol.RegisterNode;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorRefResolver;
import org.apache.pekko.serialization.JSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A hostile peer over real Artery: its serializer claims our serializer id but sends garbage, or a frame just
 * over our limit. The coordinator must drop those messages (logged) and keep serving honest peers.
 */
@Timeout(60)
class HostileWireTest {
    private Coordinator coordinator;
    private ActorTestKit hostile;
    private ActorTestKit honest;

    @AfterEach
    void stop() {
        if (hostile != null) {
            hostile.shutdownTestKit();
        }
        if (honest != null) {
            honest.shutdownTestKit();
        }
        if (coordinator != null) {
            coordinator.close();
        }
    }

    /** Writes junk (mode "junk") or an oversized zero frame (mode "big") under the Courier serializer id. */
    public static final class JunkSerializer extends JSerializer {
        private final boolean big;

        public JunkSerializer(org.apache.pekko.actor.ExtendedActorSystem system) {
            this.big = system.settings().config().getString("test.junk-mode").equals("big");
        }

        @Override
        public int identifier() {
            return KryoWireSerializer.IDENTIFIER;
        }

        @Override
        public boolean includeManifest() {
            return false;
        }

        @Override
        public byte[] toBinary(Object o) {
            if (big) {
                return new byte[260 * 1024]; // over the coordinator's 256 KiB cap, under Artery's frame limit
            }
            byte[] junk = new byte[64];
            Arrays.fill(junk, (byte) 0xFF);
            junk[0] = (byte) (WireTable.REGISTER_NODE + 2);
            return junk;
        }

        @Override
        public Object fromBinaryJava(byte[] bytes, Class<?> manifest) {
            throw new UnsupportedOperationException("hostile peers only send");
        }
    }

    private static Config hostileConfig(String mode) {
        return ConfigFactory.parseString("pekko.actor.serializers.courier-kryo = \""
                + JunkSerializer.class.getName() + "\"\n"
                + "pekko.actor.serialization-identifiers { \"" + JunkSerializer.class.getName() + "\" = "
                + KryoWireSerializer.IDENTIFIER + " }\n"
                + "test.junk-mode = " + mode + "\n").withFallback(TestSupport.remoteConfig());
    }

    @Test
    void malformedAndOversizedFramesAreDroppedAndTheCoordinatorCarriesOn() throws Exception {
        coordinator = TestSupport.coordinator(0, 20, "varys");
        for (String mode : new String[] {"junk", "big"}) {
            hostile = ActorTestKit.create("hostile", hostileConfig(mode));
            ActorRef<CoordinatorCommand> entry = ActorRefResolver.get(hostile.system())
                    .resolveActorRef(coordinator.entryPath());
            TestProbe<ClientCommand> p = hostile.createTestProbe();
            for (int i = 0; i < 5; i++) {
                entry.tell(new RegisterNode(new NodeInfo("evil-" + i, "e:1", "e:2", 0, 0), p.getRef()));
            }
            p.expectNoMessage(Duration.ofMillis(500));
            hostile.shutdownTestKit();
            hostile = null;
        }
        // An honest peer is still served, and nothing hostile got registered.
        honest = ActorTestKit.create("honest", TestSupport.remoteConfig());
        ActorRef<CoordinatorCommand> entry = ActorRefResolver.get(honest.system()).resolveActorRef(coordinator.entryPath());
        TestProbe<ClientCommand> p = honest.createTestProbe();
        entry.tell(new RegisterNode(new NodeInfo("good", "g:1", "g:2", 0, 0), p.getRef()));
        assertEquals("good", p.expectMessageClass(NodeRegistered.class, Duration.ofSeconds(10)).nodeId());
        assertEquals(1, coordinator.status(Duration.ofSeconds(5)).toCompletableFuture().get(10, TimeUnit.SECONDS)
                .nodes().size());
    }
}
