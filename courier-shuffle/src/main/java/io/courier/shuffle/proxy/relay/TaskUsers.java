package io.courier.shuffle.proxy.relay;

/**
 * The OS user each job's tasks run as on this node, for the relay's task-user check: a task connection whose
 * peer (from its domain socket's credentials) is another user is refused. A NodeManager builds it from the
 * applications it initialised and its container executor (see {@code io.courier.shuffle.nm.ContainerUsers});
 * a proxy without one checks nothing. Called on the relay's event loops: must be thread-safe and must not block.
 */
@FunctionalInterface
public interface TaskUsers {
    /** The OS user {@code job}'s tasks run as here, or null when the job is not known on this node. */
    String userOf(String job);
}
