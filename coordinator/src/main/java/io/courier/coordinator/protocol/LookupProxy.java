package io.courier.coordinator.protocol;

import org.apache.pekko.actor.typed.ActorRef;

/** Discovery: which proxy endpoint serves the node with this shuffle endpoint? Answered by {@link ProxyLocation}. */
public final class LookupProxy implements CoordinatorCommand, CoordinatorMessage {
    private final String shuffleEndpoint;
    private final ActorRef<ClientCommand> replyTo;

    public LookupProxy(String shuffleEndpoint, ActorRef<ClientCommand> replyTo) {
        this.shuffleEndpoint = Checks.text("shuffle endpoint", shuffleEndpoint);
        this.replyTo = Checks.notNull("replyTo", replyTo);
    }

    public String shuffleEndpoint() {
        return shuffleEndpoint;
    }

    public ActorRef<ClientCommand> replyTo() {
        return replyTo;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LookupProxy && ((LookupProxy) o).shuffleEndpoint.equals(shuffleEndpoint)
                && ((LookupProxy) o).replyTo.equals(replyTo);
    }

    @Override
    public int hashCode() {
        return shuffleEndpoint.hashCode();
    }

    @Override
    public String toString() {
        return "LookupProxy(" + shuffleEndpoint + ")";
    }
}
