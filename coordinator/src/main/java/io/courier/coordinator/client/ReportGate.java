package io.courier.coordinator.client;

import io.courier.coordinator.protocol.FlowReport;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Report suppression: decides, each time the client evaluates its flows (every report interval), whether the
 * coordinator needs them. The coordinator extrapolates a node's last report (see
 * {@link io.courier.coordinator.protocol.NodeReport}): a flow's bytes sent grow at the reported measured rate,
 * at most up to its size, and nothing else changes. So a report is sent only when that prediction is off, or
 * as a heartbeat:
 * <ul>
 * <li>the set of flows changed (a new flow, one gone), a flow finished or resumed, or its final size changed;
 * <li>bytes sent differ from the prediction, or the size (sent + pending, or the final size) from the last
 * report, by more than {@code tolerance} × the smaller of the flow's predicted bytes sent and bytes remaining,
 * but never less than one block ({@link #BLOCK_BYTES}, the proxy's granularity): both the bytes sent (which
 * Aalo's queues and Sincronia's orders read) and the bytes remaining (Varys' bottleneck) are then within the
 * tolerance of the truth, relatively;
 * <li>the measured rate moved by more than {@code tolerance} of itself and more than one block per report
 * interval (below that it is the measurement's own quantization);
 * <li>the last report is {@code heartbeat} old (the coordinator's view is never older than that, and the node's
 * liveness depends on it).
 * </ul>
 * A tolerance of 0 sends every evaluation (no suppression). Not thread-safe: the client's actor thread only.
 */
public final class ReportGate {
    /** Proxies move 64 KiB blocks: a deviation below one block is the granularity of the data plane. */
    public static final long BLOCK_BYTES = 64 * 1024;

    private final double tolerance;
    private final long heartbeatNanos;
    private final double rateFloor;
    private final Map<String, FlowReport> lastSent = new HashMap<String, FlowReport>();
    private long lastSentNanos = -1;

    /**
     * @param tolerance fraction in [0, 1]; 0 = report every evaluation
     * @param intervalNanos the evaluation (report) interval
     * @param heartbeatNanos the longest silence between two reports
     */
    public ReportGate(double tolerance, long intervalNanos, long heartbeatNanos) {
        if (!(tolerance >= 0 && tolerance <= 1)) {
            throw new IllegalArgumentException("report tolerance must be in [0, 1], got " + tolerance);
        }
        if (intervalNanos <= 0 || heartbeatNanos <= 0) {
            throw new IllegalArgumentException("report interval and heartbeat must be > 0, got " + intervalNanos
                    + " ns and " + heartbeatNanos + " ns");
        }
        this.tolerance = tolerance;
        this.heartbeatNanos = heartbeatNanos;
        this.rateFloor = BLOCK_BYTES * 1e9 / intervalNanos;
    }

    /** Forget what was sent: the next evaluation is reported (after a (re-)registration). */
    public void reset() {
        lastSent.clear();
        lastSentNanos = -1;
    }

    /**
     * Whether the flows evaluated at {@code nowNanos} are to be sent; when they are, they become the reference for
     * the next predictions (the caller sends them).
     */
    public boolean offer(List<FlowReport> flows, long nowNanos) {
        if (!needed(flows, nowNanos)) {
            return false;
        }
        lastSent.clear();
        for (FlowReport r : flows) {
            lastSent.put(key(r), r);
        }
        lastSentNanos = nowNanos;
        return true;
    }

    private boolean needed(List<FlowReport> flows, long now) {
        if (tolerance == 0 || lastSentNanos < 0 || now - lastSentNanos >= heartbeatNanos
                || flows.size() != lastSent.size()) {
            return true;
        }
        double dt = (now - lastSentNanos) / 1e9;
        for (FlowReport r : flows) {
            FlowReport p = lastSent.get(key(r));
            if (p == null || p.finished() != r.finished() || p.totalBytes() != r.totalBytes()
                    || (p.measuredRate() < 0) != (r.measuredRate() < 0)) {
                return true;
            }
            long cap = p.size();
            double predicted = p.predictedSent(dt);
            double allowance = Math.max(BLOCK_BYTES, tolerance * Math.min(predicted, cap - predicted));
            if (Math.abs(r.bytesSent() - predicted) > allowance || Math.abs(r.size() - cap) > allowance) {
                return true;
            }
            double rateAllowance = Math.max(rateFloor, tolerance * Math.max(p.measuredRate(), r.measuredRate()));
            if (Math.abs(r.measuredRate() - p.measuredRate()) > rateAllowance) {
                return true;
            }
        }
        return false;
    }

    private static String key(FlowReport r) {
        return r.jobId() + '\u0000' + r.srcNode() + '\u0000' + r.dstNode();
    }
}
