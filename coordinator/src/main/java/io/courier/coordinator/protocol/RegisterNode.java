package io.courier.coordinator.protocol;

import org.apache.pekko.actor.typed.ActorRef;

/**
 * A proxy registers (or re-registers after its own or the coordinator's restart) its node; the reply is
 * {@link NodeRegistered}. Registering an id again replaces the old entry and its reply address.
 */
public final class RegisterNode implements CoordinatorCommand, CoordinatorMessage {
    private final NodeInfo node;
    private final ActorRef<ClientCommand> replyTo;

    public RegisterNode(NodeInfo node, ActorRef<ClientCommand> replyTo) {
        this.node = Checks.notNull("node", node);
        this.replyTo = Checks.notNull("replyTo of " + node.nodeId(), replyTo);
    }

    public NodeInfo node() {
        return node;
    }

    public ActorRef<ClientCommand> replyTo() {
        return replyTo;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RegisterNode && ((RegisterNode) o).node.equals(node)
                && ((RegisterNode) o).replyTo.equals(replyTo);
    }

    @Override
    public int hashCode() {
        return node.hashCode();
    }

    @Override
    public String toString() {
        return "RegisterNode(" + node + ")";
    }
}
