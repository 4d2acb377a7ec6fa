package io.courier.bench.netemu;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** How reducers fetch: Hadoop's own shuffle, or Courier's, with or without a coordinator. */
enum Mode {
    /** Hadoop's ShuffleHandler serving; Hadoop's Shuffle (Fetcher threads, HTTP, one connection per host batch). */
    STOCK,
    /**
     * Courier's proxies serving over one merged connection per host pair; Courier's reduce-side consumer. No
     * coordinator: the proxies schedule with Stream's decentralized priorities (their fallback).
     */
    COURIER,
    /**
     * As {@link #COURIER}, through a second proxy per host that follows a Courier coordinator (started by the
     * benchmark driver on the management network): the senders pace each flow at the rate the coordinator's
     * scheduler decides.
     */
    COURIER_COORD;

    /** The name in reports and on the command line: stock, courier, courier+{@code scheduler}. */
    String label(String scheduler) {
        switch (this) {
            case STOCK:
                return "stock";
            case COURIER:
                return "courier";
            default:
                return "courier+" + scheduler;
        }
    }

    /**
     * Ports of the shuffle services the other modes use (every service port but this mode's {@link #servicePort}):
     * their connections (the other proxy's long-lived ones stay open between runs) are not this mode's flows, so
     * the connection counts leave them out.
     */
    java.util.Set<Integer> foreignPorts() {
        java.util.Set<Integer> ports = new java.util.HashSet<>(java.util.List.of(BenchIds.SHUFFLE_PORT,
                BenchIds.SHUFFLE_PORT + BenchIds.PROXY_PORT_OFFSET, BenchIds.COORD_SHUFFLE_PORT,
                BenchIds.COORD_SHUFFLE_PORT + BenchIds.PROXY_PORT_OFFSET));
        ports.remove(servicePort());
        return java.util.Set.copyOf(ports);
    }

    /**
     * The port this mode's shuffle connections use at the serving end: Hadoop's ShuffleHandler for stock, the
     * proxy of the service the mode's reducers fetch from otherwise.
     */
    int servicePort() {
        switch (this) {
            case STOCK:
                return BenchIds.SHUFFLE_PORT;
            case COURIER:
                return BenchIds.SHUFFLE_PORT + BenchIds.PROXY_PORT_OFFSET;
            default:
                return BenchIds.COORD_SHUFFLE_PORT + BenchIds.PROXY_PORT_OFFSET;
        }
    }

    /** Whether reducers fetch through a Courier proxy. */
    boolean courier() {
        return this != STOCK;
    }

    /**
     * Parses {@code --modes} entries: stock, courier, courier+coord, courier-coord or courier+{@code scheduler}
     * (case-insensitive). Refuses unknown names and repeats, naming them.
     */
    static List<Mode> parseList(List<String> names, String scheduler) {
        List<Mode> out = new ArrayList<>();
        for (String raw : names) {
            String n = raw.trim().toLowerCase(Locale.ROOT);
            Mode m;
            if (n.equals("stock")) {
                m = STOCK;
            } else if (n.equals("courier")) {
                m = COURIER;
            } else if (n.equals("courier+coord") || n.equals("courier-coord") || n.equals("courier_coord")
                    || n.equals("courier+" + scheduler.toLowerCase(Locale.ROOT))) {
                m = COURIER_COORD;
            } else {
                throw new IllegalArgumentException("unknown mode '" + raw + "' in --modes (known: stock, courier, "
                        + "courier+coord, courier+" + scheduler + ")");
            }
            if (out.contains(m)) {
                throw new IllegalArgumentException("mode '" + raw + "' given twice in --modes");
            }
            out.add(m);
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("--modes names no mode");
        }
        return out;
    }

    /**
     * The order of {@code modes} in repeat {@code repeat}: rotated by one per repeat (S C K, C K S, K S C, ...),
     * so each mode runs first, in the middle and last equally often. With two modes: S C, C S, as before.
     */
    static List<Mode> order(List<Mode> modes, int repeat) {
        List<Mode> out = new ArrayList<>();
        int n = modes.size();
        for (int i = 0; i < n; i++) {
            out.add(modes.get((i + repeat) % n));
        }
        return out;
    }
}
