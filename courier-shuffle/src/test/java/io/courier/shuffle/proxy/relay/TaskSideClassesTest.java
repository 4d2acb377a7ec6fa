package io.courier.shuffle.proxy.relay;

import io.courier.shuffle.proxy.protocol.FrameType;
import io.courier.shuffle.proxy.protocol.RelayFetchFrame;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.Closeable;
import java.io.File;
import java.lang.reflect.Method;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The reduce task's relay client must not need Netty: the task jar ships without it (a cold Netty cost
 * 0.6-1.4 s per reduce task). Loads the task-side classes in a class loader that hides {@code io.netty}, then
 * connects, handshakes and fetches through them.
 */
@Timeout(60)
class TaskSideClassesTest {
    /** Loads Courier's classes itself (so that their references resolve here) and refuses every Netty class. */
    private static final class NettyFreeLoader extends URLClassLoader {
        NettyFreeLoader(URL[] urls) {
            super(urls, TaskSideClassesTest.class.getClassLoader().getParent());
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (name.startsWith("io.netty.")) {
                throw new ClassNotFoundException(name + " is hidden: the task side must not need Netty");
            }
            return super.loadClass(name, resolve);
        }
    }

    private static URL[] classPath() throws MalformedURLException {
        List<URL> urls = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            urls.add(new File(entry).toURI().toURL());
        }
        return urls.toArray(new URL[0]);
    }

    @Test
    void theRelayClientConnectsAndFetchesWithNettyHidden() throws Exception {
        try (NettyFreeLoader loader = new NettyFreeLoader(classPath());
             ScriptedLocalProxy proxy = new ScriptedLocalProxy()) {
            assertThrows(ClassNotFoundException.class, () -> loader.loadClass("io.netty.buffer.ByteBuf"));
            Class<?> configType = loader.loadClass(RelayClientConfig.class.getName());
            Class<?> clientType = loader.loadClass(LocalProxyClient.class.getName());
            Object config = configType.getMethod("defaults").invoke(null);
            Method connect = clientType.getMethod("connect", String.class, int.class, configType, String.class);
            Object client = connect.invoke(null, "127.0.0.1", proxy.port(), config, "attempt_1_0001_r_000000_0");
            try {
                Method fetch = clientType.getMethod("fetch", String.class, String.class, String.class, int.class,
                        byte[].class);
                Object stream = fetch.invoke(client, "10.0.0.2:13563", "job_1_0001", "attempt_1_0001_m_000000_0", 0,
                        "secret".getBytes(StandardCharsets.UTF_8));
                RelayFetchFrame f = (RelayFetchFrame) proxy.next(FrameType.RELAY_FETCH);
                assertEquals("attempt_1_0001_m_000000_0", f.mapAttempt());
                ((Closeable) stream).close();
                proxy.next(FrameType.CANCEL);
            } finally {
                ((Closeable) client).close();
            }
        }
    }
}
