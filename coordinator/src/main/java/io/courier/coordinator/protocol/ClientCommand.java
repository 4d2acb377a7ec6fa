package io.courier.coordinator.protocol;

/** What a proxy's coordinator client accepts from the coordinator (and, for local-only commands, itself). */
public interface ClientCommand {
}
