package io.courier.coordinator.actors;

import io.courier.coordinator.protocol.CoordinatorCommand;
import io.courier.coordinator.status.CoordinatorStatus;
import java.util.Collections;
import java.util.HashSet;
import java.util.Set;
import org.apache.pekko.actor.NoSerializationVerificationNeeded;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.dispatch.ControlMessage;

/**
 * Messages the coordinator's actors send each other inside one JVM; never on the wire. Those that are
 * {@link ControlMessage}s jump ahead of queued reports in the scheduling actor's control-aware mailbox (see
 * {@link CoordinatorGuardian}): an epoch tick must not wait behind thousands of reports, and a status query or
 * a table change should not either.
 */
public final class Internal {
    private Internal() {
    }

    /** NodeRegistry → SchedulingActor: the node table changed. */
    static final class NodesChanged implements CoordinatorCommand, ControlMessage, NoSerializationVerificationNeeded {
        final NodeTable table;

        NodesChanged(NodeTable table) {
            this.table = table;
        }
    }

    /** CoflowRegistry → SchedulingActor: a coflow arrived or completed (the scheduler runs at once). */
    static final class CoflowsChanged implements CoordinatorCommand, ControlMessage, NoSerializationVerificationNeeded {
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
    public static final class GetStatus implements CoordinatorCommand, ControlMessage, NoSerializationVerificationNeeded {
        final ActorRef<CoordinatorStatus> replyTo;

        public GetStatus(ActorRef<CoordinatorStatus> replyTo) {
            this.replyTo = replyTo;
        }
    }

    /**
     * Timer messages. EPOCH is sent by the scheduling actor to itself with {@code scheduleOnce}, unwrapped, so
     * that its mailbox sees a control message (typed timers wrap theirs); EXPIRE is the node registry's timer.
     */
    enum Tick implements CoordinatorCommand, ControlMessage, NoSerializationVerificationNeeded {
        EPOCH, EXPIRE
    }
}
