package io.courier.coordinator.wire;

import org.apache.pekko.actor.ExtendedActorSystem;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorRefResolver;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.serialization.JSerializer;

/**
 * Pekko's serializer for {@link io.courier.coordinator.protocol.CoordinatorMessage}: Kryo with the fixed
 * {@link WireTable}, frames capped at {@code courier.wire.max-frame-bytes}. Pekko creates one per actor
 * system and calls it from any thread; {@link WireCodec} is thread-safe. Bound in the configuration built
 * by {@link io.courier.coordinator.PekkoSettings}.
 */
public final class KryoWireSerializer extends JSerializer {
    /** Pekko serializer id; fixed forever (Pekko reserves 0-40). */
    public static final int IDENTIFIER = 47_100;
    public static final String MAX_FRAME_KEY = "courier.wire.max-frame-bytes";
    public static final int DEFAULT_MAX_FRAME_BYTES = 1 << 20;

    private final WireCodec codec;

    public KryoWireSerializer(final ExtendedActorSystem system) {
        int max = system.settings().config().hasPath(MAX_FRAME_KEY)
                ? (int) system.settings().config().getBytes(MAX_FRAME_KEY).longValue() : DEFAULT_MAX_FRAME_BYTES;
        this.codec = new WireCodec(new ResolverCodec(system), max);
    }

    @Override
    public int identifier() {
        return IDENTIFIER;
    }

    @Override
    public boolean includeManifest() {
        return false; // the registered Kryo id inside the frame says what it is
    }

    @Override
    public byte[] toBinary(Object o) {
        return codec.encode(o);
    }

    @Override
    public Object fromBinaryJava(byte[] bytes, Class<?> manifest) {
        return codec.decode(bytes);
    }

    /** Resolves references through the system's typed {@link ActorRefResolver}, created on first use. */
    private static final class ResolverCodec implements ActorRefCodec {
        private final ExtendedActorSystem system;
        private volatile ActorRefResolver resolver;

        ResolverCodec(ExtendedActorSystem system) {
            this.system = system;
        }

        private ActorRefResolver resolver() {
            ActorRefResolver r = resolver;
            if (r == null) {
                r = ActorRefResolver.get(Adapter.toTyped(system));
                resolver = r;
            }
            return r;
        }

        @Override
        public String toWire(ActorRef<?> ref) {
            return resolver().toSerializationFormat(ref);
        }

        @Override
        public <T> ActorRef<T> fromWire(String path) {
            return resolver().resolveActorRef(path);
        }
    }
}
