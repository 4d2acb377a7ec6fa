package io.courier.shuffle.proxy.relay;

/**
 * The process at the other end of a task's domain-socket connection, as the kernel reported it when the task
 * connected ({@code SO_PEERCRED}), and the user name of its uid. Immutable.
 */
final class TaskPeer {
    private final int pid;
    private final int uid;
    private final String user;

    TaskPeer(int pid, int uid, String user) {
        this.pid = pid;
        this.uid = uid;
        this.user = user;
    }

    int pid() {
        return pid;
    }

    int uid() {
        return uid;
    }

    /** The uid's user name. */
    String user() {
        return user;
    }

    @Override
    public String toString() {
        return "pid " + pid + ", user " + user + " (uid " + uid + ")";
    }
}
