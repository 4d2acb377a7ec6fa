package io.courier.coordinator.actors;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/** An immutable snapshot of the registered nodes, by node id (sorted, which fixes their host index). */
public final class NodeTable {
    static final NodeTable EMPTY = new NodeTable(new TreeMap<String, NodeEntry>(), 0);

    private final Map<String, NodeEntry> nodes;
    // Lookups happen for every report row: a hash lookup, not a walk of string comparisons down the tree.
    private final Map<String, NodeEntry> byId;
    private final long version;

    NodeTable(TreeMap<String, NodeEntry> nodes, long version) {
        this.nodes = Collections.unmodifiableMap(new TreeMap<String, NodeEntry>(nodes));
        this.byId = new HashMap<String, NodeEntry>(nodes);
        this.version = version;
    }

    public Map<String, NodeEntry> nodes() {
        return nodes;
    }

    public NodeEntry get(String nodeId) {
        return byId.get(nodeId);
    }

    /** Increases with every change: the scheduling actor rebuilds its network only when it moves. */
    public long version() {
        return version;
    }
}
