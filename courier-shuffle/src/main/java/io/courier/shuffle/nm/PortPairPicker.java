package io.courier.shuffle.nm;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

/**
 * Picks a shuffle port {@code p} such that {@code p} and {@code p + offset} are both free on all interfaces, for
 * NodeManagers configured with {@code mapreduce.shuffle.port=0} (mini clusters) under the offset port rule.
 * The ports are only probed, not held, so a caller must still be ready for a bind race and pick again.
 * Stateless; any thread.
 */
public final class PortPairPicker {
    /** Ephemeral candidates tried before giving up. */
    static final int CANDIDATES = 50;

    private PortPairPicker() {
    }

    /** A port {@code p} with {@code p} and {@code p + offset} free just now. */
    public static int pick(int offset) throws IOException {
        IOException last = null;
        for (int i = 0; i < CANDIDATES; i++) {
            int p;
            try (ServerSocket s = new ServerSocket()) {
                s.bind(new InetSocketAddress(0));
                p = s.getLocalPort();
                if (p + offset > 65535) {
                    continue;
                }
                // Hold p while probing p + offset, so that the pair was free at one moment.
                if (isFree(p + offset)) {
                    return p;
                }
            } catch (IOException e) {
                last = e;
            }
        }
        IOException e = new IOException("found no free port p with p + " + offset + " also free after " + CANDIDATES
                + " tries");
        if (last != null) {
            e.addSuppressed(last);
        }
        throw e;
    }

    /** Whether {@code port} can be bound on all interfaces right now. */
    public static boolean isFree(int port) {
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress(port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
