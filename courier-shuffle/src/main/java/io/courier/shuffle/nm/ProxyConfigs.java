package io.courier.shuffle.nm;

import io.courier.shuffle.coordination.CoordinationConfig;
import io.courier.shuffle.proxy.ProxyConfig;
import io.courier.shuffle.service.ProxyPortRule;
import org.apache.hadoop.conf.Configuration;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads the node's proxy settings from the NodeManager's Hadoop {@link Configuration} (yarn-site.xml): every
 * {@code courier.proxy.*} key goes through {@link ProxyConfig#fromProperties}, which refuses unknown keys, except
 * the two keys of the cluster's {@link ProxyPortRule} ({@code courier.proxy.port}, {@code courier.proxy.port-offset}),
 * which only the handler reads, and {@code courier.proxy.capacity.bytes-per-second}, which belongs to the
 * coordinator settings ({@link #coordination}). Inside the NodeManager the proxy binds to {@code 0.0.0.0} by default and names
 * itself after the NodeManager's host, as reducers see it in map-completion URLs, and caps its task connections
 * at Hadoop's {@code mapreduce.shuffle.max.connections} unless {@code courier.proxy.relay.max-connections} is
 * set. Stateless.
 */
public final class ProxyConfigs {
    /** Cluster-wide proxy port; -1 selects "shuffle port + {@link #PORT_OFFSET}". */
    public static final String PORT = ProxyConfig.PORT;
    public static final int DEFAULT_PORT = 13563;
    public static final String PORT_OFFSET = "courier.proxy.port-offset";
    public static final int DEFAULT_PORT_OFFSET = 1;
    /** The NodeManager default of {@link ProxyConfig#BIND_HOST}: all interfaces, like ShuffleHandler. */
    public static final String DEFAULT_BIND_HOST = "0.0.0.0";

    static final String PREFIX = "courier.proxy.";
    static final String COORDINATOR_PREFIX = "courier.coordinator.";
    private static final String NM_ADDRESS = "yarn.nodemanager.address";
    /** Hadoop's ShuffleHandler connection cap, the default of {@link ProxyConfig#RELAY_MAX_CONNECTIONS}. */
    static final String SHUFFLE_MAX_CONNECTIONS = "mapreduce.shuffle.max.connections";

    private ProxyConfigs() {
    }

    /**
     * The proxy settings in {@code conf}, with port 0 (the handler sets the port the rule gives).
     *
     * @throws IllegalArgumentException naming the key, for an unknown {@code courier.proxy.*} key or a bad value
     */
    public static ProxyConfig fromHadoop(Configuration conf) {
        Map<String, String> props = new TreeMap<>();
        for (Map.Entry<String, String> e : conf.getPropsWithPrefix(PREFIX).entrySet()) {
            String key = PREFIX + e.getKey();
            if (!key.equals(PORT) && !key.equals(PORT_OFFSET) && !key.equals(CoordinationConfig.CAPACITY)) {
                props.put(key, e.getValue() == null ? "" : e.getValue());
            }
        }
        if (!props.containsKey(ProxyConfig.HOST)) {
            props.put(ProxyConfig.HOST, advertisedHost(conf));
        }
        if (!props.containsKey(ProxyConfig.BIND_HOST)) {
            props.put(ProxyConfig.BIND_HOST, DEFAULT_BIND_HOST);
        }
        if (!props.containsKey(ProxyConfig.RELAY_MAX_CONNECTIONS)) {
            // The operator's cap on the node's shuffle connections (ShuffleHandler answers 429 beyond it) caps
            // the relay's task connections too: with Courier those are the node's fetching connections.
            String hadoopCap = conf.getTrimmed(SHUFFLE_MAX_CONNECTIONS, "0");
            try {
                props.put(ProxyConfig.RELAY_MAX_CONNECTIONS, Integer.toString(Math.max(0, Integer.parseInt(hadoopCap))));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("Courier proxy settings of the NodeManager (yarn-site.xml): '"
                        + SHUFFLE_MAX_CONNECTIONS + "' (the default of '" + ProxyConfig.RELAY_MAX_CONNECTIONS
                        + "') is not a number: " + hadoopCap, e);
            }
        }
        try {
            return ProxyConfig.fromProperties(props).withPort(0);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("Courier proxy settings of the NodeManager (yarn-site.xml): "
                    + e.getMessage(), e);
        }
    }

    /**
     * The node's coordinator settings: every {@code courier.coordinator.*} key and
     * {@code courier.proxy.capacity.bytes-per-second} (see {@link CoordinationConfig}).
     *
     * @throws IllegalArgumentException naming the key, for a bad value
     */
    public static CoordinationConfig coordination(Configuration conf) {
        Map<String, String> props = new TreeMap<>();
        for (Map.Entry<String, String> e : conf.getPropsWithPrefix(COORDINATOR_PREFIX).entrySet()) {
            props.put(COORDINATOR_PREFIX + e.getKey(), e.getValue() == null ? "" : e.getValue());
        }
        String capacity = conf.getTrimmed(CoordinationConfig.CAPACITY);
        if (capacity != null) {
            props.put(CoordinationConfig.CAPACITY, capacity);
        }
        try {
            return CoordinationConfig.fromProperties(props);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("Courier coordinator settings of the NodeManager (yarn-site.xml): "
                    + e.getMessage(), e);
        }
    }

    /** The cluster's proxy-port rule from {@code courier.proxy.port} and {@code courier.proxy.port-offset}. */
    public static ProxyPortRule portRule(Configuration conf) {
        int port;
        int offset;
        try {
            port = Integer.parseInt(conf.getTrimmed(PORT, Integer.toString(DEFAULT_PORT)));
            offset = Integer.parseInt(conf.getTrimmed(PORT_OFFSET, Integer.toString(DEFAULT_PORT_OFFSET)));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("Courier proxy settings of the NodeManager (yarn-site.xml): '" + PORT
                    + "' and '" + PORT_OFFSET + "' must be integers: " + e.getMessage(), e);
        }
        return ProxyPortRule.of(port, offset);
    }

    /** {@code courier.proxy.port-offset} (meaningful with the offset rule only). */
    public static int portOffset(Configuration conf) {
        return conf.getInt(PORT_OFFSET, DEFAULT_PORT_OFFSET);
    }

    /**
     * The host name reducers use for this node: the host of {@code yarn.nodemanager.address}, or this machine's
     * canonical name when that address is a wildcard, resolved the way the NodeManager builds its NodeId (the
     * host of every map-completion URL).
     */
    public static String advertisedHost(Configuration conf) {
        String address = conf.getTrimmed(NM_ADDRESS, "0.0.0.0:0");
        int colon = address.lastIndexOf(':');
        String host = colon < 0 ? address : address.substring(0, colon);
        try {
            if (host.isEmpty() || host.equals("0.0.0.0") || host.equals("::") || host.equals("[::]")) {
                return InetAddress.getLocalHost().getCanonicalHostName();
            }
            return InetAddress.getByName(host).getCanonicalHostName();
        } catch (UnknownHostException e) {
            // Name resolution is broken on this host: the configured name is the best we can advertise.
            return host.isEmpty() ? "localhost" : host;
        }
    }
}
