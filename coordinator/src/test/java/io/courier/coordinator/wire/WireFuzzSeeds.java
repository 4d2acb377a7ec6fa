package io.courier.coordinator.wire;

import io.courier.coordinator.protocol.ClientCommand;
import io.courier.coordinator.protocol.CoordinatorMessage;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import org.apache.pekko.actor.ExtendedActorSystem;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.javadsl.Adapter;

/**
 * Writes the seed corpus of {@link WireDecodeFuzzTest}: every sample message of {@code WireCodecTest} as Pekko
 * would put it on the wire. Run from the module directory with the test class path (docs/security.md,
 * "Fuzzing"); the committed seeds are its output.
 */
public final class WireFuzzSeeds {
    private WireFuzzSeeds() {
    }

    public static void main(String[] args) throws IOException {
        File dir = new File(args.length > 0 ? args[0] : "src/test/resources", "io/courier/coordinator/wire/"
                + "WireDecodeFuzzTestInputs/arbitraryBytesDecodeToAMessageOrAWireFormatError");
        dir.mkdirs();
        ActorTestKit kit = ActorTestKit.create("wire-fuzz");
        try {
            ActorRef<ClientCommand> ref = kit.<ClientCommand>createTestProbe().getRef();
            WireCodecTest.ref = ref;
            KryoWireSerializer s = new KryoWireSerializer((ExtendedActorSystem) Adapter.toClassic(kit.system()));
            for (CoordinatorMessage m : WireCodecTest.samples()) {
                byte[] b = s.toBinary(m);
                Files.write(new File(dir, m.getClass().getSimpleName() + "-" + b.length).toPath(), b);
            }
        } finally {
            kit.shutdownTestKit();
        }
    }
}
