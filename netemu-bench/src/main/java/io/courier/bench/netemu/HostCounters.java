package io.courier.bench.netemu;

import java.util.List;

/**
 * One reading of every emulated host's TCP counters and NIC qdisc, and the totals over all hosts of what changed
 * between two readings: what each benchmark run (data plane or TeraSort) reports. Immutable.
 */
record HostCounters(List<NstatCounters> nstat, List<TcQdiscStats> nics) {
    HostCounters {
        if (nstat.size() != nics.size()) {
            throw new IllegalArgumentException(nstat.size() + " nstat readings for " + nics.size() + " NICs");
        }
        nstat = List.copyOf(nstat);
        nics = List.copyOf(nics);
    }

    /** Sums over hosts of the changes since {@code before}. */
    Totals since(HostCounters before) {
        long retrans = 0;
        long timeouts = 0;
        long syn = 0;
        long probes = 0;
        long opens = 0;
        long nicDrops = 0;
        for (int i = 0; i < nstat.size(); i++) {
            NstatCounters d = nstat.get(i).minus(before.nstat().get(i));
            retrans += d.get(NstatCounters.RETRANS_SEGS);
            timeouts += d.get(NstatCounters.TIMEOUTS);
            syn += d.get(NstatCounters.SYN_RETRANS);
            probes += d.get(NstatCounters.LOSS_PROBES);
            opens += d.get(NstatCounters.ACTIVE_OPENS);
            nicDrops += nics.get(i).minus(before.nics().get(i)).totalDrops();
        }
        return new Totals(retrans, timeouts, syn, probes, opens, nicDrops);
    }

    /** TcpRetransSegs, TcpExtTCPTimeouts, TcpExtTCPSynRetrans, TcpExtTCPLossProbes, TcpActiveOpens, NIC drops. */
    record Totals(long retrans, long timeouts, long syn, long probes, long opens, long nicDrops) {
    }
}
