package io.courier.coordinator.wire;

import org.apache.pekko.actor.typed.ActorRef;

/** Turns actor references into their serialization strings and back (Pekko's {@code ActorRefResolver} in a system). */
public interface ActorRefCodec {
    String toWire(ActorRef<?> ref);

    <T> ActorRef<T> fromWire(String path);
}
