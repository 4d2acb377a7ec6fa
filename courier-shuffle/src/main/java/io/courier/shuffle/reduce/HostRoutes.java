package io.courier.shuffle.reduce;

import io.courier.shuffle.service.ProxyPortRule;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which path each source host takes: through the Courier proxy, or Hadoop's HTTP shuffle (all hosts when this
 * node runs no Courier proxy; a host whose proxy was found unreachable, for the rest of the task). Remembers
 * the source proxies that served segments. Thread-safe: fetch workers read and update it concurrently.
 */
final class HostRoutes {
    private final ProxyPortRule rule;
    private final Set<String> httpOnly = ConcurrentHashMap.newKeySet();
    private final Set<String> servingProxies = ConcurrentHashMap.newKeySet();

    /** @param rule the cluster's proxy-port rule, or null when this node runs no Courier proxy */
    HostRoutes(ProxyPortRule rule) {
        this.rule = rule;
    }

    /** True when {@code hostName} ({@code host:shufflePort} as the scheduler names it) is fetched over HTTP. */
    boolean isHttp(String hostName) {
        return rule == null || httpOnly.contains(hostName);
    }

    /** From now on, fetch {@code hostName} over HTTP; true the first time. */
    boolean markHttpOnly(String hostName) {
        return httpOnly.add(hostName);
    }

    /**
     * The source proxy ({@code host:proxyPort}) of the node whose shuffle server is {@code hostName}.
     *
     * @throws IllegalArgumentException when the name has no shuffle port or the rule yields no valid port
     */
    String sourceProxy(String hostName) {
        int colon = hostName.lastIndexOf(':');
        if (colon <= 0 || colon == hostName.length() - 1) {
            throw new IllegalArgumentException("map host '" + hostName + "' has no host:port form");
        }
        int shufflePort;
        try {
            shufflePort = Integer.parseInt(hostName.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("map host '" + hostName + "' has no numeric shuffle port");
        }
        return hostName.substring(0, colon) + ":" + rule.proxyPortFor(shufflePort);
    }

    void served(String sourceProxy) {
        servingProxies.add(sourceProxy);
    }

    int servingProxies() {
        return servingProxies.size();
    }
}
