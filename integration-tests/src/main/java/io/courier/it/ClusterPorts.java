package io.courier.it;

import java.io.IOException;
import java.util.HashSet;
import java.util.Set;

import io.courier.shuffle.nm.PortPairPicker;

/**
 * Hands out the fixed ports of one mini cluster's {@link RecoverableNodeManager}s, each distinct from every port
 * handed out before. {@link PortPairPicker} only probes a port, it does not hold it: NodeManagers started in
 * parallel could draw the same free port (or one's shuffle port could be another's container-manager port) and the
 * second to bind would fail (seen in about 1 cluster start in 70). Thread-safe: the starters of one cluster share it.
 */
final class ClusterPorts {
    /** Draws before giving up; a collision with a port already handed out is rare, so a few suffice. */
    private static final int DRAWS = 20;

    /** Draws a port {@code p} with {@code p + offset} also free; {@link PortPairPicker#pick(int)} but in tests. */
    interface Draw {
        int pick(int offset) throws IOException;
    }

    private final Draw draw;
    private final Set<Integer> handedOut = new HashSet<>();

    ClusterPorts() {
        this(PortPairPicker::pick);
    }

    ClusterPorts(Draw draw) {
        this.draw = draw;
    }

    /**
     * A port {@code p} with {@code p} and {@code p + offset} free just now and neither handed out before by this
     * object ({@code offset} 0: one port).
     */
    synchronized int claim(int offset) throws IOException {
        for (int i = 0; i < DRAWS; i++) {
            int p = draw.pick(offset);
            if (!handedOut.contains(p) && !handedOut.contains(p + offset)) {
                handedOut.add(p);
                handedOut.add(p + offset);
                return p;
            }
        }
        throw new IOException("no port pair (p, p + " + offset + ") free and not yet handed out after " + DRAWS
                + " draws; handed out: " + handedOut);
    }
}
