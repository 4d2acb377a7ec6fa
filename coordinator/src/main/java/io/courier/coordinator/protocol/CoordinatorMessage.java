package io.courier.coordinator.protocol;

/**
 * Marker of every message that crosses the wire between proxies and the coordinator. Pekko binds this
 * interface to {@link io.courier.coordinator.wire.KryoWireSerializer}; a class only travels if it is also in
 * {@link io.courier.coordinator.wire.WireTable}, so nothing outside the table can ever be decoded.
 */
public interface CoordinatorMessage {
}
