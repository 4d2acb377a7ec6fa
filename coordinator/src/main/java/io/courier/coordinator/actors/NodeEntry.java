package io.courier.coordinator.actors;

import io.courier.coordinator.protocol.ClientCommand;
import io.courier.coordinator.protocol.NodeInfo;
import org.apache.pekko.actor.typed.ActorRef;

/** A registered node: what its proxy said, where to push its decisions, and the capacities the scheduler uses. Immutable. */
public final class NodeEntry {
    private final NodeInfo info;
    private final ActorRef<ClientCommand> client;
    private final long upBytesPerSecond;
    private final long downBytesPerSecond;
    private final long registeredAtMillis;

    NodeEntry(NodeInfo info, ActorRef<ClientCommand> client, long defaultUp, long defaultDown, long registeredAtMillis) {
        this.info = info;
        this.client = client;
        this.upBytesPerSecond = info.upBytesPerSecond() > 0 ? info.upBytesPerSecond() : defaultUp;
        this.downBytesPerSecond = info.downBytesPerSecond() > 0 ? info.downBytesPerSecond() : defaultDown;
        this.registeredAtMillis = registeredAtMillis;
    }

    public NodeInfo info() {
        return info;
    }

    public String nodeId() {
        return info.nodeId();
    }

    public ActorRef<ClientCommand> client() {
        return client;
    }

    /** Effective up capacity (the node's own, or the configured default when it reported 0). */
    public long upBytesPerSecond() {
        return upBytesPerSecond;
    }

    public long downBytesPerSecond() {
        return downBytesPerSecond;
    }

    public long registeredAtMillis() {
        return registeredAtMillis;
    }
}
