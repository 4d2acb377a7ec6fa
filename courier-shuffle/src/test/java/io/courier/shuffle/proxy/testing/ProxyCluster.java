package io.courier.shuffle.proxy.testing;

import io.courier.shuffle.proxy.CourierProxy;
import io.courier.shuffle.proxy.ProxyConfig;
import io.courier.shuffle.proxy.auth.InMemorySecrets;
import io.courier.shuffle.proxy.client.SegmentHeader;
import io.courier.shuffle.proxy.client.SegmentStream;
import io.courier.shuffle.proxy.relay.RelayStream;
import io.courier.shuffle.proxy.relay.TaskUsers;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** N proxies in one JVM on ephemeral loopback ports, each with its own map-output directory. Closes them all. */
public final class ProxyCluster implements AutoCloseable {
    private final List<CourierProxy> proxies = new ArrayList<>();
    private final List<HadoopMapOutputs> outputs = new ArrayList<>();
    private final List<String> ids = new ArrayList<>();
    private final InMemorySecrets secrets = new InMemorySecrets();

    public ProxyCluster(File root, int nodes, ProxyConfig config) throws InterruptedException, java.net.BindException {
        this(root, nodes, config, null);
    }

    /** @param taskUsers every proxy's task-user check (null: none) */
    public ProxyCluster(File root, int nodes, ProxyConfig config, TaskUsers taskUsers)
            throws InterruptedException, java.net.BindException {
        try {
            for (int i = 0; i < nodes; i++) {
                HadoopMapOutputs out = new HadoopMapOutputs(new File(root, "node" + i));
                CourierProxy p = new CourierProxy(config, secrets, out.locator(), taskUsers);
                proxies.add(p);
                outputs.add(out);
                ids.add(p.start());
            }
        } catch (InterruptedException | java.net.BindException | RuntimeException e) {
            close();
            throw e;
        }
    }

    public CourierProxy proxy(int i) {
        return proxies.get(i);
    }

    public HadoopMapOutputs outputs(int i) {
        return outputs.get(i);
    }

    public String id(int i) {
        return ids.get(i);
    }

    public InMemorySecrets secrets() {
        return secrets;
    }

    public int size() {
        return proxies.size();
    }

    /** Reads a whole segment as a reducer would, with a header timeout. */
    public static byte[] readAll(SegmentStream s) throws IOException, InterruptedException {
        return readAll(s.awaitHeader(30, TimeUnit.SECONDS), s.data());
    }

    /** Reads a whole relayed segment as a reducer would, with a header timeout. */
    public static byte[] readAll(RelayStream s) throws IOException, InterruptedException {
        return readAll(s.awaitHeader(30, TimeUnit.SECONDS), s.data());
    }

    private static byte[] readAll(SegmentHeader h, InputStream data) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream((int) h.compressedLength());
        byte[] buf = new byte[16 * 1024];
        try (InputStream in = data) {
            int n;
            while ((n = in.read(buf)) >= 0) {
                out.write(buf, 0, n);
            }
        }
        return out.toByteArray();
    }

    @Override
    public void close() {
        for (CourierProxy p : proxies) {
            p.close();
        }
    }
}
