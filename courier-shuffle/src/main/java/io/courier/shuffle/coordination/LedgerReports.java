package io.courier.shuffle.coordination;

import io.courier.coordinator.client.ReportSource;
import io.courier.coordinator.protocol.FlowReport;
import io.courier.shuffle.proxy.schedule.FlowLedger;
import io.courier.shuffle.proxy.schedule.FlowTally;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The proxy's per-epoch report (one {@link FlowReport} per (job, this node → peer) it serves), read from the
 * send scheduler's {@link FlowLedger}: bytes sent, bytes pending (the unsent part of the segments requested so
 * far), final size unknown ({@code -1}: a reducer may still ask for more segments; the coordinator then takes
 * sent + pending as the size), the rate measured since the previous report, and {@code finished} while the pair
 * has no open stream and nothing pending (a later request makes it unfinished again). Rows of a job go away when
 * the job ends on this node. Node-local flows (this node fetching from itself) are not reported. Called on the
 * coordinator client's actor thread only (it keeps the previous counts for the rates).
 */
final class LedgerReports implements ReportSource {
    private final String self;
    private final FlowLedger ledger;
    private final LongSupplier clock;
    private final Map<String, long[]> previous = new HashMap<>();

    LedgerReports(String self, FlowLedger ledger, LongSupplier nanoClock) {
        this.self = self;
        this.ledger = ledger;
        this.clock = nanoClock;
    }

    @Override
    public List<FlowReport> currentFlows() {
        long now = clock.getAsLong();
        List<FlowTally> rows = ledger.snapshot();
        List<FlowReport> out = new ArrayList<>(rows.size());
        Map<String, long[]> next = new HashMap<>(rows.size() * 2);
        for (FlowTally t : rows) {
            if (t.peer().equals(self)) {
                // A node-local flow (a reducer on this node fetching this node's map output) never crosses the
                // network: in the coordinator's model it would take capacity of both of this node's ports from
                // the flows that do, and be paced itself. Unreported, it has no decision and runs unpaced.
                continue;
            }
            String k = t.job() + "\u0000" + t.peer();
            long[] before = previous.get(k);
            double rate = -1;
            if (before != null && now > before[1]) {
                rate = Math.max(0, t.sent() - before[0]) * 1e9 / (now - before[1]);
            }
            next.put(k, new long[] {t.sent(), now});
            boolean finished = t.idle() && t.pending() == 0 && t.sent() > 0;
            out.add(new FlowReport(t.job(), self, t.peer(), t.sent(), t.pending(), FlowReport.UNKNOWN_SIZE, rate,
                    finished));
        }
        previous.clear();
        previous.putAll(next);
        return out;
    }
}
