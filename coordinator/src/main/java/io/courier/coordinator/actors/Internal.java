package io.courier.coordinator.actors;

import io.courier.coordinator.protocol.CoordinatorCommand;
import io.courier.coordinator.status.CoordinatorStatus;
import java.util.Collections;
import java.util.HashSet;
import java.util.Set;
import org.apache.pekko.actor.NoSerializationVerificationNeeded;
import org.apache.pekko.actor.typed.ActorRef;

/** Messages the coordinator's actors send each other inside one JVM; never on the wire. */
public final class Internal {
    private Internal() {
    }

    /** NodeRegistry → SchedulingActor: the node table changed. */
    static final class NodesChanged implements CoordinatorCommand, NoSerializationVerificationNeeded {
        final NodeTable table;

        NodesChanged(NodeTable table) {
            this.table = table;
        }
    }

    /** CoflowRegistry → SchedulingActor: a coflow arrived or completed (the scheduler runs at once). */
    static final class CoflowsChanged implements CoordinatorCommand, NoSerializationVerificationNeeded {
        final CoflowTable table;

        CoflowsChanged(CoflowTable table) {
            this.table = table;
        }
    }

    /** SchedulingActor → NodeRegistry: these nodes reported since the last batch (keeps them from expiring). */
    static final class NodesSeen implements CoordinatorCommand, NoSerializationVerificationNeeded {
        final Set<String> nodes;

        NodesSeen(Set<String> nodes) {
            this.nodes = Collections.unmodifiableSet(new HashSet<String>(nodes));
        }
    }

    /** Anyone local → the coordinator: a snapshot for the HTTP status API. */
    public static final class GetStatus implements CoordinatorCommand, NoSerializationVerificationNeeded {
        final ActorRef<CoordinatorStatus> replyTo;

        public GetStatus(ActorRef<CoordinatorStatus> replyTo) {
            this.replyTo = replyTo;
        }
    }

    /** Timer messages. */
    enum Tick implements CoordinatorCommand, NoSerializationVerificationNeeded {
        EPOCH, EXPIRE
    }
}
