package io.courier.bench.netemu;

import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;

/**
 * Absolute kernel network counters of one namespace as {@code nstat -asz} prints them ({@code Name value rate}
 * lines after a {@code #kernel} header). {@code -s} matters: without it nstat rewrites its history file, which
 * all namespaces share. Immutable.
 */
record NstatCounters(Map<String, Long> values) {
    static final String RETRANS_SEGS = "TcpRetransSegs";
    static final String TIMEOUTS = "TcpExtTCPTimeouts";
    static final String SYN_RETRANS = "TcpExtTCPSynRetrans";
    static final String ACTIVE_OPENS = "TcpActiveOpens";
    /** Tail-loss probes: retransmissions without a loss (they count in TcpRetransSegs too). */
    static final String LOSS_PROBES = "TcpExtTCPLossProbes";
    static final String OUT_SEGS = "TcpOutSegs";

    /** @throws IOException naming the line, for output that is not nstat's */
    static NstatCounters parse(String text) throws IOException {
        Map<String, Long> v = new TreeMap<>();
        for (String line : text.split("\n")) {
            String t = line.trim();
            if (t.isEmpty() || t.startsWith("#")) {
                continue;
            }
            String[] f = t.split("\\s+");
            if (f.length < 2) {
                throw new IOException("nstat: cannot read line '" + line + "'");
            }
            try {
                v.put(f[0], Long.parseLong(f[1]));
            } catch (NumberFormatException e) {
                throw new IOException("nstat: counter " + f[0] + " has value '" + f[1] + "', not a number");
            }
        }
        if (v.isEmpty()) {
            throw new IOException("nstat: no counters in output: " + TcQdiscStats.abbreviate(text));
        }
        return new NstatCounters(Map.copyOf(v));
    }

    long get(String name) {
        Long x = values.get(name);
        return x == null ? 0 : x;
    }

    NstatCounters minus(NstatCounters before) {
        Map<String, Long> d = new TreeMap<>();
        for (Map.Entry<String, Long> e : values.entrySet()) {
            d.put(e.getKey(), e.getValue() - before.get(e.getKey()));
        }
        return new NstatCounters(Map.copyOf(d));
    }
}
