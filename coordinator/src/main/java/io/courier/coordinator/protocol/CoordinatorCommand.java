package io.courier.coordinator.protocol;

/** What the coordinator's entry actor accepts from proxies (and, for local-only commands, from itself). */
public interface CoordinatorCommand {
}
