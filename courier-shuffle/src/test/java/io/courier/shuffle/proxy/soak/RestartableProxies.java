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

    RestartableProxies(File root, int nodes, ProxyConfig config) throws InterruptedException {
        this.config = config;
        this.proxies = new CourierProxy[nodes];
        this.ids = new String[nodes];
        try {
            for (int i = 0; i < nodes; i++) {
                HadoopMapOutputs out = new HadoopMapOutputs(new File(root, "node" + i));
                outputs.add(out);
                proxies[i] = new CourierProxy(config, secrets, out.locator());
                ids[i] = proxies[i].start();
            }
        } catch (InterruptedException | RuntimeException e) {
            close();
            throw e;
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

    /** Closes proxy {@code i} (its connections fail) and starts a new one on the same port and map outputs. */
    void restart(int i) throws InterruptedException {
        CourierProxy old;
        synchronized (this) {
            old = proxies[i];
        }
        old.close();
        CourierProxy fresh = new CourierProxy(config.withPort(NodeAddress.parse(ids[i]).port()), secrets,
                outputs.get(i).locator());
        String id = fresh.start();
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
