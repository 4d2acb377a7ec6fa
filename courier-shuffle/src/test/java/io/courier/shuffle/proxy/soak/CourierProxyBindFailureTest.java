package io.courier.shuffle.proxy.soak;

import io.courier.shuffle.proxy.CourierProxy;
import io.courier.shuffle.proxy.ProxyConfig;
import io.courier.shuffle.proxy.auth.InMemorySecrets;
import io.courier.shuffle.proxy.source.DirectoryMapOutputLocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.net.BindException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Regression (found by the proxy soak): a proxy whose port is taken must fail to start without leaving its event
 * loops behind. Netty rethrows the bind failure, a checked {@link BindException}, undeclared; {@code start()}
 * used to clean up only for InterruptedException and RuntimeException, so each failed start kept an accept thread
 * and three selectors (their file descriptors) alive.
 */
class CourierProxyBindFailureTest {
    @TempDir
    File dir;

    @Test
    @Timeout(60)
    void aProxyThatCannotBindLeavesNoThreadOrDescriptorBehind() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"))) {
            ProxyConfig config = ProxyConfig.defaults().withHost("127.0.0.1").withBindHost("127.0.0.1")
                    .withPort(taken.getLocalPort()).withIoThreads(2);
            // One failed start first: JVM-wide lazy state (Netty's classes, the global executor) is then in place.
            failToStart(config);
            ResourceSnapshot before = settled(null);
            for (int i = 0; i < 5; i++) {
                failToStart(config);
            }
            ResourceSnapshot after = settled(before);
            assertTrue(after.moreThreadsThan(before).isEmpty(), () -> "threads left: " + after.moreThreadsThan(before));
            assertTrue(after.fds <= before.fds + 1, () -> "file descriptors " + before.fds + " -> " + after.fds);
        }
    }

    private void failToStart(ProxyConfig config) {
        CourierProxy p = new CourierProxy(config, new InMemorySecrets(), new DirectoryMapOutputLocator(dir));
        Exception e = assertThrows(Exception.class, p::start);
        assertTrue(e instanceof BindException, () -> "expected a BindException, got " + e);
        // After the failed start the proxy may be started again (nothing of the first attempt is left).
        Exception again = assertThrows(Exception.class, p::start);
        assertEquals(BindException.class, again.getClass(), "a second start must try to bind again");
    }

    private static ResourceSnapshot settled(ResourceSnapshot base) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            ResourceSnapshot s = ResourceSnapshot.take();
            if (base == null || (s.moreThreadsThan(base).isEmpty() && s.fds <= base.fds + 1)
                    || System.nanoTime() > deadline) {
                return s;
            }
            Thread.sleep(100); // event loops end on their own schedule: nothing to wait on
        }
    }
}
