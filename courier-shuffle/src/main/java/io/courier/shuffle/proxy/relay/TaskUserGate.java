package io.courier.shuffle.proxy.relay;

import io.courier.shuffle.proxy.protocol.ErrorCode;
import io.courier.shuffle.proxy.protocol.ProtocolException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The task-user check of one task connection: every RELAY_FETCH names a job, and the connecting process's user
 * ({@link TaskPeer}) must be the user that job's tasks run as here ({@link TaskUsers}). A task of another user
 * holds a job token only by theft, so a mismatch refuses the whole connection (counted, logged with job, task
 * and process). The last job that passed is remembered: a reducer fetches for one job, so the lookup runs once
 * per connection, not per segment. Confined to the connection's event loop.
 */
final class TaskUserGate {
    private static final Logger LOG = LoggerFactory.getLogger(TaskUserGate.class);
    private final String nodeId;
    private final String task;
    private final TaskPeer peer;
    private final TaskUsers users;
    private final RelayStats stats;
    private String passed;

    TaskUserGate(String nodeId, String task, TaskPeer peer, TaskUsers users, RelayStats stats) {
        this.nodeId = nodeId;
        this.task = task;
        this.peer = peer;
        this.users = users;
        this.stats = stats;
    }

    /** @throws ProtocolException RELAY_NOT_ALLOWED when the peer is not {@code job}'s user, or the job is unknown */
    void check(String job) throws ProtocolException {
        if (job.equals(passed)) {
            return;
        }
        String expected = users.userOf(job);
        if (expected == null) {
            throw refused("job " + job + " has no tasks on this node, so the user of task " + task + " (" + peer
                    + ") cannot be checked against it");
        }
        if (!expected.equals(peer.user())) {
            throw refused("task " + task + " runs as " + peer + ", but job " + job + "'s tasks run as " + expected);
        }
        passed = job;
    }

    private ProtocolException refused(String why) {
        return refusal(nodeId, stats, why);
    }

    /** A task connection refused by the check for {@code why}: counted, logged, and the error to close it with. */
    static ProtocolException refusal(String nodeId, RelayStats stats, String why) {
        stats.refusedTaskUsers.incrementAndGet();
        LOG.warn("proxy {} refused a task connection: {} (courier.proxy.relay.task-user.check)", nodeId, why);
        return new ProtocolException(ErrorCode.RELAY_NOT_ALLOWED, "proxy " + nodeId + " refused the connection: "
                + why + " (courier.proxy.relay.task-user.check)");
    }
}
