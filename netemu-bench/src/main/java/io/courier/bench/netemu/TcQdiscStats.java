package io.courier.bench.netemu;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;

/**
 * Per-device root-qdisc counters from {@code tc -s -j qdisc show}: the switch ports' drops (HTB counts a packet
 * its bfifo leaf refuses), packets and bytes sent. Immutable.
 */
record TcQdiscStats(Map<String, Port> ports) {
    /** One device's root qdisc counters. */
    record Port(String kind, long drops, long packets, long bytes, long overlimits) {
        Port minus(Port before) {
            return new Port(kind, drops - before.drops, packets - before.packets, bytes - before.bytes,
                    overlimits - before.overlimits);
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * Parses the JSON array {@code tc -s -j qdisc show} prints; only root qdiscs count (a device's children are
     * inside its root's counters).
     *
     * @throws IOException naming the problem for output that is not tc's JSON
     */
    static TcQdiscStats parse(String json) throws IOException {
        return parse(json, null);
    }

    /** As {@link #parse(String)}, for {@code tc ... show dev DEV}, whose output names no device: {@code dev}. */
    static TcQdiscStats parse(String json, String dev) throws IOException {
        JsonNode root = JSON.readTree(json);
        if (root == null || !root.isArray()) {
            throw new IOException("tc -s -j qdisc: expected a JSON array, got: " + abbreviate(json));
        }
        Map<String, Port> ports = new TreeMap<>();
        for (JsonNode q : root) {
            if (!q.path("root").asBoolean(false)) {
                continue;
            }
            String name = q.path("dev").asText(dev);
            if (name == null || !q.has("drops") || !q.has("packets")) {
                throw new IOException("tc -s -j qdisc: root qdisc without dev/drops/packets (was -s given?): " + q);
            }
            ports.put(name, new Port(q.path("kind").asText(""), q.path("drops").asLong(), q.path("packets").asLong(),
                    q.path("bytes").asLong(), q.path("overlimits").asLong()));
        }
        return new TcQdiscStats(Map.copyOf(ports));
    }

    /** Only the switch ports p1..pN (not the bridge or loopback, whose noqueue qdiscs count nothing). */
    TcQdiscStats portsOnly() {
        Map<String, Port> m = new TreeMap<>();
        for (Map.Entry<String, Port> e : ports.entrySet()) {
            if (e.getKey().matches("p\\d+")) {
                m.put(e.getKey(), e.getValue());
            }
        }
        return new TcQdiscStats(Map.copyOf(m));
    }

    /** Counters accumulated since {@code before} (same devices). */
    TcQdiscStats minus(TcQdiscStats before) {
        Map<String, Port> d = new TreeMap<>();
        for (Map.Entry<String, Port> e : ports.entrySet()) {
            Port b = before.ports.get(e.getKey());
            d.put(e.getKey(), b == null ? e.getValue() : e.getValue().minus(b));
        }
        return new TcQdiscStats(Map.copyOf(d));
    }

    long totalDrops() {
        long n = 0;
        for (Port p : ports.values()) {
            n += p.drops();
        }
        return n;
    }

    long totalPackets() {
        long n = 0;
        for (Port p : ports.values()) {
            n += p.packets();
        }
        return n;
    }

    static String abbreviate(String s) {
        return s == null ? "null" : s.length() <= 200 ? s : s.substring(0, 200) + "...";
    }
}
