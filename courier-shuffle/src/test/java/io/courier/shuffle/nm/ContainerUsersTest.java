package io.courier.shuffle.nm;

import io.courier.shuffle.proxy.ProxyConfig;
import io.courier.shuffle.proxy.relay.TaskUsers;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/** Which user a job's containers run as, as the container executor's own rule says, and when auto checks. */
class ContainerUsersTest {
    private static final String LCE = "org.apache.hadoop.yarn.server.nodemanager.LinuxContainerExecutor";
    private static final Function<String, String> SUBMITTERS = job -> job.equals("job_1_0001") ? "alice" : null;

    private static Configuration conf(String executor) {
        Configuration c = new Configuration(false);
        if (executor != null) {
            c.set(ContainerUsers.EXECUTOR, executor);
        }
        return c;
    }

    private static TaskUsers users(Configuration c, String check) {
        return ContainerUsers.of(c, ProxyConfig.defaults().withRelayTaskUserCheck(check), SUBMITTERS);
    }

    @Test
    void autoChecksOnlyWhereContainersRunAsTheirUsers() {
        assertNull(users(conf(null), "auto"), "DefaultContainerExecutor: every task is the NodeManager's user");
        assertNull(users(conf(LCE), "false"));
        assertNotNull(users(conf(LCE), "auto"));
    }

    @Test
    void linuxContainerExecutorRunsAsTheJobsUserOrTheNonsecureLocalUser() {
        Configuration limited = conf(LCE);
        assertEquals("nobody", users(limited, "auto").userOf("job_1_0001"), "non-secure, limit-users (default)");
        limited.set(ContainerUsers.LOCAL_USER, "yarn-tasks");
        assertEquals("yarn-tasks", users(limited, "auto").userOf("job_1_0001"));
        Configuration unlimited = conf(LCE);
        unlimited.setBoolean(ContainerUsers.LIMIT_USERS, false);
        assertEquals("alice", users(unlimited, "auto").userOf("job_1_0001"));
        Configuration kerberos = conf(LCE);
        kerberos.set("hadoop.security.authentication", "kerberos");
        assertEquals("alice", users(kerberos, "auto").userOf("job_1_0001"));
        assertNull(users(kerberos, "auto").userOf("job_1_0002"), "a job unknown here has no user to check");
    }

    @Test
    void explicitlyOnWithAnotherExecutorExpectsTheNodeManagersUser() {
        assertEquals(System.getProperty("user.name"), users(conf(null), "true").userOf("job_1_0001"));
    }
}
