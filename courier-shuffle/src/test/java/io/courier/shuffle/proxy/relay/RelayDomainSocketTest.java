package io.courier.shuffle.proxy.relay;

import io.courier.shuffle.proxy.CourierProxy;
import io.courier.shuffle.proxy.NodeAddress;
import io.courier.shuffle.proxy.ProxyConfig;
import io.courier.shuffle.proxy.auth.InMemorySecrets;
import io.courier.shuffle.proxy.client.FetchException;
import io.courier.shuffle.proxy.protocol.ErrorCode;
import io.courier.shuffle.proxy.source.MapOutputFiles;
import io.courier.shuffle.proxy.testing.ProxyCluster;
import io.netty.channel.epoll.Epoll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The relay's Unix domain socket: tasks fetch over it byte-identical, it is private to its proxy and gone after
 * it, and the task-user check refuses a task whose OS user (the socket's peer credentials) is not its job's, and
 * any task over TCP while users are checked. The "other user" is this test's own process with the job
 * registered to a user it is not: the kernel's peer credentials and the lookup of the user's name are real.
 */
@Timeout(120)
class RelayDomainSocketTest {
    private static final String JOB = "job_1700000000000_0001";
    private static final String MAP = "attempt_1700000000000_0001_m_000000_0";
    private static final byte[] SECRET = "secret".getBytes(StandardCharsets.UTF_8);
    private static final String ME = System.getProperty("user.name");

    @TempDir
    File dir;

    @BeforeEach
    void linuxWithEpoll() {
        assumeTrue(Epoll.isAvailable(), "the relay's domain socket runs on the epoll transport");
    }

    private static ProxyConfig config(File socketDir) {
        return ProxyConfig.defaults().withRelayDomainSocketDir(socketDir.getAbsolutePath());
    }

    @Test
    void aTaskFetchesOverTheDomainSocketWhichIsPrivateAndFoundAgainAfterARestart() throws Exception {
        Path socket;
        NodeAddress old;
        File socketDir = new File(dir, "s");
        try (ProxyCluster c = new ProxyCluster(new File(dir, "nodes"), 2, config(socketDir))) {
            old = NodeAddress.parse(c.id(0));
            c.secrets().put(JOB, SECRET);
            MapOutputFiles files = c.outputs(1).write(JOB, MAP, 2, 50, 700, 7);
            socket = c.proxy(0).relaySocket();
            assertNotNull(socket);
            assertEquals("rwx--x--x", PosixFilePermissions.toString(Files.getPosixFilePermissions(socket.getParent())),
                    "others may reach the socket but not list or change its directory");
            assertEquals("rw-rw-rw-", PosixFilePermissions.toString(Files.getPosixFilePermissions(socket)));
            NodeAddress a = NodeAddress.parse(c.id(0));
            try (LocalProxyClient task = LocalProxyClient.connect(a.host(), a.port(), socket.toString(),
                    RelayClientConfig.defaults(), "attempt_1700000000000_0001_r_000000_0")) {
                assertEquals(socket.toString(), task.via());
                for (int r = 0; r < 2; r++) {
                    byte[] got = ProxyCluster.readAll(task.fetch(c.id(1), JOB, MAP, r, SECRET));
                    assertArrayEquals(c.outputs(1).expectedSegment(files, r), got, "partition " + r);
                    c.outputs(0).verifyChecksum(got);
                }
            }
            RelayStats stats = c.proxy(0).relayStats();
            assertEquals(1, stats.taskConnections());
            assertEquals(1, stats.domainSocketConnections());
            assertEquals(0, stats.refusedTaskUsers());
            assertNotEquals(c.proxy(0).relaySocket(), c.proxy(1).relaySocket());
        }
        assertFalse(Files.exists(socket), "socket removed with its proxy");
        assertTrue(Files.isDirectory(socket.getParent()), "its directory stays the proxy's, so no one else takes it");
        try (CourierProxy restarted = new CourierProxy(config(socketDir).withPort(old.port()), new InMemorySecrets(),
                (job, map) -> null)) {
            restarted.start();
            assertEquals(socket, restarted.relaySocket(), "a restarted proxy listens where its tasks look");
            try (LocalProxyClient task = LocalProxyClient.connect(old.host(), old.port(), socket.toString(),
                    RelayClientConfig.defaults(), "t")) {
                assertEquals(socket.toString(), task.via());
            }
        }
    }

    @Test
    void aSquattersDirectoryIsRefusedAndTheProxyFallsBackToTcp() throws Exception {
        File socketDir = new File(dir, "s");
        try (CourierProxy probe = new CourierProxy(config(socketDir), new InMemorySecrets(), (job, map) -> null)) {
            probe.start();
            Path theirs = probe.relaySocket().getParent();
            int port = NodeAddress.parse(probe.nodeId()).port();
            probe.close();
            // Someone else's directory in its place: a world-writable one is no place for the relay.
            Files.setPosixFilePermissions(theirs, PosixFilePermissions.fromString("rwxrwxrwx"));
            try (CourierProxy p = new CourierProxy(config(socketDir).withPort(port), new InMemorySecrets(),
                    (job, map) -> null)) {
                p.start();
                assertNull(p.relaySocket(), "auto: refused with the reason in the log, TCP only");
            }
            try (CourierProxy p = new CourierProxy(config(socketDir).withPort(port).withRelayDomainSocket("true"),
                    new InMemorySecrets(), (job, map) -> null)) {
                IllegalStateException e = assertThrows(IllegalStateException.class, p::start);
                assertTrue(e.getMessage().contains("refusing the relay's socket directory")
                        && e.getMessage().contains("rwxrwxrwx"), e.getMessage());
            }
        }
    }

    @Test
    void aTaskOfAnotherUserIsRefusedAndCountedWhileItsOwnJobsPass() throws Exception {
        String other = "courier-not-" + ME;
        String otherJob = "job_1700000000000_0002";
        String otherMap = "attempt_1700000000000_0002_m_000000_0";
        Map<String, String> users = new HashMap<>();
        users.put(JOB, ME);
        users.put(otherJob, other);
        try (ProxyCluster c = new ProxyCluster(new File(dir, "nodes"), 2, config(new File(dir, "s")), users::get)) {
            c.secrets().put(JOB, SECRET);
            c.secrets().put(otherJob, SECRET);
            MapOutputFiles mine = c.outputs(1).write(JOB, MAP, 1, 20, 300, 1);
            c.outputs(1).write(otherJob, otherMap, 1, 20, 300, 2);
            NodeAddress a = NodeAddress.parse(c.id(0));
            String socket = c.proxy(0).relaySocket().toString();
            try (LocalProxyClient task = LocalProxyClient.connect(a.host(), a.port(), socket,
                    RelayClientConfig.defaults(), "mine")) {
                assertArrayEquals(c.outputs(1).expectedSegment(mine, 0),
                        ProxyCluster.readAll(task.fetch(c.id(1), JOB, MAP, 0, SECRET)), "own job's segment");
            }
            try (LocalProxyClient task = LocalProxyClient.connect(a.host(), a.port(), socket,
                    RelayClientConfig.defaults(), "theirs")) {
                RelayStream s = task.fetch(c.id(1), otherJob, otherMap, 0, SECRET);
                FetchException e = assertThrows(FetchException.class, () -> s.awaitHeader(30, TimeUnit.SECONDS));
                assertEquals(ErrorCode.RELAY_NOT_ALLOWED, e.code(), e.getMessage());
                assertTrue(e.getMessage().contains("user " + ME) && e.getMessage().contains("run as " + other)
                        && e.getMessage().contains(otherJob), e.getMessage());
            }
            RelayStats stats = c.proxy(0).relayStats();
            assertEquals(1, stats.refusedTaskUsers());
            assertEquals(c.outputs(1).expectedSegment(mine, 0).length, stats.bytesRelayed(),
                    "nothing of the other user's job was relayed");
        }
    }

    @Test
    void whileUsersAreCheckedATaskOverTcpIsRefusedWithTheReason() throws Exception {
        try (ProxyCluster c = new ProxyCluster(new File(dir, "nodes"), 1, config(new File(dir, "s")),
                job -> ME)) {
            NodeAddress a = NodeAddress.parse(c.id(0));
            IOException e = assertThrows(IOException.class, () -> LocalProxyClient.connect(a.host(), a.port(),
                    RelayClientConfig.defaults(), "tcp-task"));
            assertTrue(e.getMessage().contains("RELAY_NOT_ALLOWED") && e.getMessage().contains("over TCP"),
                    e.getMessage());
            assertEquals(1, c.proxy(0).relayStats().refusedTaskUsers());
        }
    }

    @Test
    void anAdvertisedSocketThatCannotBeReachedIsAFailureNeverARouteToTheTcpPort() throws Exception {
        try (ProxyCluster c = new ProxyCluster(new File(dir, "nodes"), 1, config(new File(dir, "s")))) {
            NodeAddress a = NodeAddress.parse(c.id(0));
            String missing = new File(dir, "no-such.sock").getAbsolutePath();
            IOException e = assertThrows(IOException.class, () -> LocalProxyClient.connect(a.host(), a.port(),
                    missing, RelayClientConfig.defaults(), "t"));
            assertTrue(e.getMessage().contains(missing), e.getMessage());
            assertEquals(0, c.proxy(0).relayStats().taskConnections(), "nothing reached the TCP port");
        }
    }

    @Test
    void checkingUsersWithoutADomainSocketIsAStartFailureWhenAskedForAndAWarningOnAuto() throws Exception {
        ProxyConfig noSocket = config(new File(dir, "s")).withRelayDomainSocket("false");
        try (CourierProxy p = new CourierProxy(noSocket.withRelayTaskUserCheck("true"), new InMemorySecrets(),
                (job, map) -> null, job -> ME)) {
            IllegalStateException e = assertThrows(IllegalStateException.class, p::start);
            assertTrue(e.getMessage().contains(ProxyConfig.RELAY_TASK_USER_CHECK), e.getMessage());
        }
        try (CourierProxy p = new CourierProxy(noSocket, new InMemorySecrets(), (job, map) -> null, job -> ME)) {
            p.start();
            assertNull(p.relaySocket());
            NodeAddress a = NodeAddress.parse(p.nodeId());
            try (LocalProxyClient task = LocalProxyClient.connect(a.host(), a.port(), RelayClientConfig.defaults(),
                    "t")) {
                assertEquals("tcp", task.via(), "auto: unchecked over TCP, with a warning in the log");
            }
        }
    }

    @Test
    void badSettingsNameTheirKey() {
        for (String key : new String[] {ProxyConfig.RELAY_DOMAIN_SOCKET, ProxyConfig.RELAY_TASK_USER_CHECK}) {
            Map<String, String> p = new HashMap<>();
            p.put(key, "maybe");
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> ProxyConfig.fromProperties(p));
            assertTrue(e.getMessage().contains(key), e.getMessage());
        }
        Map<String, String> p = new HashMap<>();
        p.put(ProxyConfig.RELAY_DOMAIN_SOCKET_DIR, "relative/dir");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ProxyConfig.fromProperties(p));
        assertTrue(e.getMessage().contains(ProxyConfig.RELAY_DOMAIN_SOCKET_DIR), e.getMessage());
    }

    @Test
    void aSocketPathTooLongForTheKernelIsNamedAndTheProxyFallsBackToTcp() throws Exception {
        File deep = new File(dir, String.join("", java.util.Collections.nCopies(120, "x")));
        try (CourierProxy p = new CourierProxy(config(deep), new InMemorySecrets(), (job, map) -> null)) {
            p.start();
            assertNull(p.relaySocket(), "auto: TCP only, with the path and its length in the log");
        }
        try (CourierProxy p = new CourierProxy(config(deep).withRelayDomainSocket("true"), new InMemorySecrets(),
                (job, map) -> null)) {
            IllegalStateException e = assertThrows(IllegalStateException.class, p::start);
            assertTrue(e.getMessage().contains("bytes") && e.getMessage().contains(ProxyConfig.RELAY_DOMAIN_SOCKET_DIR),
                    e.getMessage());
        }
    }
}
