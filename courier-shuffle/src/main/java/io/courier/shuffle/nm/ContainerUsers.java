package io.courier.shuffle.nm;

import io.courier.shuffle.proxy.ProxyConfig;
import io.courier.shuffle.proxy.relay.TaskUsers;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.SecurityUtil;
import org.apache.hadoop.security.UserGroupInformation;

import java.util.function.Function;

/**
 * The OS user a job's containers run as on this NodeManager, for the relay's task-user check
 * ({@code courier.proxy.relay.task-user.check}). With the LinuxContainerExecutor a container runs as its job's
 * user when Kerberos is on or {@code ...nonsecure-mode.limit-users} is false, and otherwise as the
 * {@code ...nonsecure-mode.local-user} (default {@code nobody}): the rule of the executor's own
 * {@code getRunAsUser}. With any other executor every container runs as the NodeManager's own user, so the
 * check would tell tasks apart from nothing: {@code auto} leaves it off there. Immutable; any thread.
 */
final class ContainerUsers implements TaskUsers {
    static final String EXECUTOR = "yarn.nodemanager.container-executor.class";
    static final String LIMIT_USERS = "yarn.nodemanager.linux-container-executor.nonsecure-mode.limit-users";
    static final String LOCAL_USER = "yarn.nodemanager.linux-container-executor.nonsecure-mode.local-user";

    private final Function<String, String> userOfJob;
    /** Null: each job's own user. */
    private final String everyContainer;

    private ContainerUsers(Function<String, String> userOfJob, String everyContainer) {
        this.userOfJob = userOfJob;
        this.everyContainer = everyContainer;
    }

    /**
     * The users to check task connections against as {@code conf} asks, or null when they are not checked.
     *
     * @param userOfJob the user who submitted a job (ShuffleHandler's record from {@code initializeApplication}),
     *                  null for a job unknown here
     */
    static TaskUsers of(Configuration conf, ProxyConfig proxy, Function<String, String> userOfJob) {
        switch (proxy.relayTaskUserCheck()) {
            case "false":
                return null;
            case "auto":
                return isLinux(conf) ? runAs(conf, userOfJob) : null;
            default:
                return runAs(conf, userOfJob);
        }
    }

    /**
     * The user each job's containers run as under {@code conf}'s executor: what owns the map outputs they write,
     * and what a task connection's peer must be.
     */
    static TaskUsers runAs(Configuration conf, Function<String, String> userOfJob) {
        if (!isLinux(conf)) {
            return new ContainerUsers(userOfJob, currentUser()); // every container runs as the NodeManager's user
        }
        boolean secure = SecurityUtil.getAuthenticationMethod(conf) != UserGroupInformation.AuthenticationMethod.SIMPLE;
        if (secure || !conf.getBoolean(LIMIT_USERS, true)) {
            return new ContainerUsers(userOfJob, null);
        }
        return new ContainerUsers(userOfJob, conf.get(LOCAL_USER, "nobody").trim());
    }

    private static boolean isLinux(Configuration conf) {
        return conf.get(EXECUTOR, "").trim().endsWith("LinuxContainerExecutor");
    }

    private static String currentUser() {
        return System.getProperty("user.name");
    }

    @Override
    public String userOf(String job) {
        String submitter = userOfJob.apply(job);
        if (submitter == null) {
            return null;
        }
        return everyContainer == null ? submitter : everyContainer;
    }

    @Override
    public String toString() {
        return everyContainer == null ? "each job's own user" : "user " + everyContainer + " for every job";
    }
}
