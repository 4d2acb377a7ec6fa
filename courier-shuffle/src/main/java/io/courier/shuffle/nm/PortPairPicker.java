package io.courier.shuffle.nm;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.Random;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Picks a shuffle port {@code p} such that {@code p} and {@code p + offset} are both free on all interfaces, for
 * NodeManagers configured with {@code mapreduce.shuffle.port=0} (mini clusters) under the offset port rule.
 * The pair is drawn outside the kernel's ephemeral range when the range is known and leaves room
 * ({@link EphemeralPortRange}): a NodeManager restarted with recovery must bind the same pair again, and a port
 * inside the range can meanwhile be taken by any outgoing connection, a peer's retry that connected to itself
 * included. Otherwise the kernel's own free port ({@code bind(0)}) is the candidate, as before.
 * The ports are only probed, not held, so a caller must still be ready for a bind race and pick again.
 * Stateless; any thread.
 */
public final class PortPairPicker {
    private static final Logger LOG = LoggerFactory.getLogger(PortPairPicker.class);
    /** Candidates tried in each of the two ways before giving up. */
    static final int CANDIDATES = 50;
    /** The fewest ports a span outside the ephemeral range needs to be drawn from. */
    static final int MIN_SPAN = 64;
    /** Below the ephemeral range, candidates start here: lower ports hold most services' fixed defaults. */
    static final int LOWEST_BELOW = 10000;

    private PortPairPicker() {
    }

    /**
     * A port {@code p} with {@code p} and {@code p + offset} free just now, outside the ephemeral range if it can;
     * {@code offset} 0 asks for one free port.
     */
    public static int pick(int offset) throws IOException {
        return pick(offset, EphemeralPortRange.ofThisMachine(), ThreadLocalRandom.current());
    }

    /** As {@link #pick(int)} with the ephemeral range given ({@code null}: unknown) and the random draws. */
    static int pick(int offset, EphemeralPortRange range, Random random) throws IOException {
        int[] span = range == null ? null : spanOutside(range, offset);
        if (span != null) {
            for (int i = 0; i < CANDIDATES; i++) {
                int p = span[0] + random.nextInt(span[1] - span[0] + 1);
                if (pairFree(p, offset)) {
                    return p;
                }
            }
            LOG.warn("No free port pair (p, p + {}) among {} draws from {}-{}, outside the ephemeral range {}-{};"
                    + " taking one the kernel hands out", offset, CANDIDATES, span[0], span[1], range.low(),
                    range.high());
        }
        return pickEphemeral(offset);
    }

    /**
     * The ports {@code [from, to]} a pair's lower port may be drawn from so that both lie outside {@code range}:
     * above it if that leaves {@link #MIN_SPAN} ports, else below it from {@link #LOWEST_BELOW}; {@code null} if
     * neither does.
     */
    static int[] spanOutside(EphemeralPortRange range, int offset) {
        int aboveFrom = range.high() + 1;
        int aboveTo = 65535 - offset;
        if (aboveTo - aboveFrom + 1 >= MIN_SPAN) {
            return new int[] {aboveFrom, aboveTo};
        }
        int belowTo = range.low() - 1 - offset;
        if (belowTo - LOWEST_BELOW + 1 >= MIN_SPAN) {
            return new int[] {LOWEST_BELOW, belowTo};
        }
        return null;
    }

    private static int pickEphemeral(int offset) throws IOException {
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
                if (offset == 0 || isFree(p + offset)) {
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

    /** Whether {@code p} and {@code p + offset} can both be bound at one moment (p held while probing the other). */
    private static boolean pairFree(int p, int offset) {
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress(p));
            return offset == 0 || isFree(p + offset);
        } catch (IOException e) {
            return false;
        }
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
