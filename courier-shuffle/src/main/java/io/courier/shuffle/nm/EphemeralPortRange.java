package io.courier.shuffle.nm;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * The kernel's range of ephemeral ports, from which {@code connect()} draws a client's own port (Linux:
 * {@code /proc/sys/net/ipv4/ip_local_port_range}, "low high"). A server port inside it can be taken by any
 * outgoing connection while its server is down — by a peer's connection to itself, even (see
 * {@code SelfConnection}) — so ports Courier picks for itself are taken outside it. Immutable.
 */
final class EphemeralPortRange {
    private static final Logger LOG = LoggerFactory.getLogger(EphemeralPortRange.class);
    static final Path LINUX_RANGE = Paths.get("/proc/sys/net/ipv4/ip_local_port_range");

    private final int low;
    private final int high;

    EphemeralPortRange(int low, int high) {
        if (low < 1 || high > 65535 || low > high) {
            throw new IllegalArgumentException("ephemeral port range " + low + "-" + high + " is not a port range");
        }
        this.low = low;
        this.high = high;
    }

    /** This machine's range, or {@code null} when it cannot be read (not Linux, or an unexpected file). */
    static EphemeralPortRange ofThisMachine() {
        if (!Files.isReadable(LINUX_RANGE)) {
            return null;
        }
        // A line, not readAllBytes: procfs reports a size of 0 and JDK 17 then returned one byte of it.
        try (BufferedReader r = Files.newBufferedReader(LINUX_RANGE, StandardCharsets.US_ASCII)) {
            String line = r.readLine();
            return parse(line == null ? "" : line);
        } catch (IOException | IllegalArgumentException e) {
            LOG.warn("Cannot read the ephemeral port range from {} ({}); picking shuffle ports anywhere", LINUX_RANGE,
                    e.toString());
            return null;
        }
    }

    /** Parses "low high" (whitespace between, as the kernel writes it). */
    static EphemeralPortRange parse(String text) {
        String[] parts = text.trim().split("\\s+");
        if (parts.length != 2) {
            throw new IllegalArgumentException("expected 'low high', got '" + text.trim() + "'");
        }
        try {
            return new EphemeralPortRange(Integer.parseInt(parts[0]), Integer.parseInt(parts[1]));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("expected 'low high', got '" + text.trim() + "'", e);
        }
    }

    int low() {
        return low;
    }

    int high() {
        return high;
    }

    boolean contains(int port) {
        return port >= low && port <= high;
    }
}
