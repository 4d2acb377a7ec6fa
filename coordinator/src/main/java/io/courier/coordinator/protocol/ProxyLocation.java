package io.courier.coordinator.protocol;

/** The answer to {@link LookupProxy}: the proxy endpoint, or "" when no registered node has that shuffle endpoint. */
public final class ProxyLocation implements ClientCommand, CoordinatorMessage {
    private final String shuffleEndpoint;
    private final String proxyEndpoint;

    public ProxyLocation(String shuffleEndpoint, String proxyEndpoint) {
        this.shuffleEndpoint = Checks.text("shuffle endpoint", shuffleEndpoint);
        this.proxyEndpoint = proxyEndpoint == null ? "" : proxyEndpoint;
    }

    public String shuffleEndpoint() {
        return shuffleEndpoint;
    }

    /** The proxy endpoint, or "" when unknown. */
    public String proxyEndpoint() {
        return proxyEndpoint;
    }

    public boolean found() {
        return !proxyEndpoint.isEmpty();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ProxyLocation && ((ProxyLocation) o).shuffleEndpoint.equals(shuffleEndpoint)
                && ((ProxyLocation) o).proxyEndpoint.equals(proxyEndpoint);
    }

    @Override
    public int hashCode() {
        return shuffleEndpoint.hashCode();
    }

    @Override
    public String toString() {
        return "ProxyLocation(" + shuffleEndpoint + " -> " + (found() ? proxyEndpoint : "unknown") + ")";
    }
}
