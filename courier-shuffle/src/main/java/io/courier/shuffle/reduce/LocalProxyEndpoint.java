package io.courier.shuffle.reduce;

import io.courier.shuffle.service.ServiceMetadata;
import org.apache.hadoop.yarn.util.AuxiliaryServiceHelper;

import java.nio.ByteBuffer;
import java.util.Map;

/**
 * Where a reduce task finds its own node's Courier proxy: the {@code mapreduce_shuffle} service metadata that
 * the NodeManager exports into the container environment ({@code NM_AUX_SERVICE_mapreduce_shuffle}), and the
 * node's host name ({@code NM_HOST}). Immutable.
 */
public final class LocalProxyEndpoint {
    /** The aux-service name whose metadata carries Courier's ports (the MR AM requires this name). */
    public static final String SHUFFLE_SERVICE = "mapreduce_shuffle";
    /** Container environment variable with the NodeManager's host name. */
    public static final String NM_HOST = "NM_HOST";

    private final String host;
    private final ServiceMetadata metadata;

    public LocalProxyEndpoint(String host, ServiceMetadata metadata) {
        this.host = host;
        this.metadata = metadata;
    }

    /**
     * The local proxy described by the container environment {@code env}, or null when the node's shuffle
     * service is not Courier's (no metadata, or a plain ShuffleHandler's port alone).
     *
     * @throws IllegalArgumentException when Courier metadata is there but unreadable, or NM_HOST is missing
     */
    public static LocalProxyEndpoint fromEnvironment(Map<String, String> env) {
        ByteBuffer data = AuxiliaryServiceHelper.getServiceDataFromEnv(SHUFFLE_SERVICE, env);
        if (data == null) {
            return null;
        }
        ServiceMetadata m;
        try {
            m = ServiceMetadata.decode(data);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("cannot read the Courier service metadata in "
                    + AuxiliaryServiceHelper.getPrefixServiceName(SHUFFLE_SERVICE) + ": " + e.getMessage(), e);
        }
        if (m == null) {
            return null;
        }
        String host = env.get(NM_HOST);
        if (host == null || host.trim().isEmpty()) {
            throw new IllegalArgumentException("the node runs Courier (" + m + ") but the container environment has"
                    + " no " + NM_HOST);
        }
        return new LocalProxyEndpoint(host.trim(), m);
    }

    public String host() {
        return host;
    }

    public int port() {
        return metadata.proxyPort();
    }

    public ServiceMetadata metadata() {
        return metadata;
    }

    /** {@code host:proxyPort}. */
    public String address() {
        return host + ":" + metadata.proxyPort();
    }

    @Override
    public String toString() {
        return address() + " (" + metadata + ")";
    }
}
