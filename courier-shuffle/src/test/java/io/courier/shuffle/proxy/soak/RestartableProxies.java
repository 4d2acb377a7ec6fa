package io.courier.shuffle.proxy.soak;

import io.courier.shuffle.proxy.CourierProxy;
import io.courier.shuffle.proxy.NodeAddress;
import io.courier.shuffle.proxy.ProxyConfig;
import io.courier.shuffle.proxy.auth.InMemorySecrets;
import io.courier.shuffle.proxy.testing.HadoopMapOutputs;

import java.io.File;
import java.util.ArrayList;
import java.util.List;

/**
 * N proxies on loopback, each of which can be restarted on its own port (a NodeManager restart as its peers see
 * it: connections lost, then a proxy with the same id and the same map outputs). Owns the proxies; the soak's
 * restart thread calls {@link #restart}, fetcher threads call {@link #proxy}/{@link #id}; thread-safe.
 */
final class RestartableProxies implements AutoCloseable {
    private final ProxyConfig config;
    private final InMemorySecrets secrets = new InMemorySecrets();
    private final List<HadoopMapOutputs> outputs = new ArrayList<>();
    private final CourierProxy[] proxies;
    private final String[] ids;
    private int restarts;
    private int bindRetries;
    private static final int BIND_ATTEMPTS = 25;
    private static final long BIND_RETRY_MILLIS = 200;

    RestartableProxies(File root, int nodes, ProxyConfig config) throws InterruptedException {
        this.config = config;
        this.proxies = new CourierProxy[nodes];
        this.ids = new String[nodes];
        try {
            for (int i = 0; i < nodes; i++) {
                HadoopMapOutputs out = new HadoopMapOutputs(new File(root, "node" + i));
                outputs.add(out);
                proxies[i] = startBelowEphemeralRange(out, i);
                ids[i] = proxies[i].nodeId();
            }
        } catch (InterruptedException | RuntimeException e) {
            close();
            throw e;
        }
    }

    /**
     * Starts proxy {@code i} on a port below Linux's ephemeral range (32768+), as a NodeManager's fixed port
     * would be: a port from that range, once closed for a restart, can be taken by any outgoing connection's
     * local port meanwhile, and the proxy could never come back under its id.
     */
    private CourierProxy startBelowEphemeralRange(HadoopMapOutputs out, int i) throws InterruptedException {
        java.util.Random rnd = new java.util.Random(System.nanoTime() + i);
        for (int attempt = 0; ; attempt++) {
            CourierProxy p = new CourierProxy(config.withPort(20_000 + rnd.nextInt(12_000)), secrets, out.locator());
            try {
                p.start();
                return p;
            } catch (Exception e) {
                p.close();
                if (!(e instanceof java.net.BindException) || attempt >= 20) {
                    throw new IllegalStateException("cannot start proxy " + i + ": " + e, e);
                }
            }
        }
    }

    int size() {
        return proxies.length;
    }

    InMemorySecrets secrets() {
        return secrets;
    }

    HadoopMapOutputs outputs(int i) {
        return outputs.get(i);
    }

    /** The node id ({@code host:port}) of proxy {@code i}; stable across restarts. */
    String id(int i) {
        return ids[i];
    }

    synchronized CourierProxy proxy(int i) {
        return proxies[i];
    }

    synchronized int restarts() {
        return restarts;
    }

    /** Restarts whose bind was refused for a moment and tried again (see {@link #restart}). */
    synchronized int bindRetries() {
        return bindRetries;
    }

    /**
     * Closes proxy {@code i} (its connections fail) and starts a new one on the same port and map outputs. If the
     * new one cannot bind, proxy {@code i} stays down (closed) and this throws; a later call tries again.
     */
    void restart(int i) throws InterruptedException {
        CourierProxy old;
        synchronized (this) {
            old = proxies[i];
        }
        old.close();
        CourierProxy fresh;
        String id;
        for (int attempt = 1; ; attempt++) {
            fresh = new CourierProxy(config.withPort(NodeAddress.parse(ids[i]).port()), secrets,
                    outputs.get(i).locator());
            try {
                id = fresh.start();
                break;
            } catch (InterruptedException e) {
                // Whoever interrupts the restarting thread is stopping it: not a failed bind, so not counted as
                // one. Proxy i stays down, as after any failed restart.
                fresh.close();
                throw e;
            } catch (Exception e) {
                // Netty rethrows a failed bind (a checked BindException) undeclared. The old proxy's listening
                // socket is closed (close() waits for it), yet Linux now and then refuses the port for a moment
                // while connections of the old proxy on it are still closing; a restarting NodeManager meets the
                // same and its supervisor starts it again. So: retry for a while, count it, and fail only if the
                // port stays taken (a real leak of the old proxy's socket).
                fresh.close();
                if (!(e instanceof java.net.BindException) || attempt >= BIND_ATTEMPTS) {
                    throw new IllegalStateException("proxy " + i + " could not start again on " + ids[i] + " ("
                            + attempt + " attempts in " + attempt * BIND_RETRY_MILLIS / 1000.0 + " s): " + e, e);
                }
                synchronized (this) {
                    bindRetries++;
                }
                Thread.sleep(BIND_RETRY_MILLIS);
            }
        }
        if (!id.equals(ids[i])) {
            fresh.close();
            throw new IllegalStateException("proxy " + i + " came back as " + id + " instead of " + ids[i]);
        }
        synchronized (this) {
            proxies[i] = fresh;
            restarts++;
        }
    }

    @Override
    public synchronized void close() {
        for (CourierProxy p : proxies) {
            if (p != null) {
                p.close();
            }
        }
    }
}
