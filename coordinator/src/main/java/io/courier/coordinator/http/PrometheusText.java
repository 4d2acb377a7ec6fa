package io.courier.coordinator.http;

import io.courier.coordinator.status.CoordinatorStatus;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/** Renders a {@link CoordinatorStatus} in the Prometheus text exposition format (0.0.4) for {@code GET /metrics}. */
public final class PrometheusText {
    private PrometheusText() {
    }

    public static byte[] render(CoordinatorStatus s) {
        StringBuilder b = new StringBuilder(4096);
        CoordinatorStatus.EpochStats e = s.epochs();
        gauge(b, "courier_coordinator_nodes", "Registered nodes (proxies).", s.nodes().size());
        gauge(b, "courier_coordinator_coflows", "Active coflows (job shuffles).", s.coflows().size());
        gauge(b, "courier_coordinator_flows", "Unified flows known from reports.", s.flows().size());
        gauge(b, "courier_coordinator_epoch_seconds", "Configured scheduling epoch.", s.epochMillis() / 1e3);
        counter(b, "courier_coordinator_epochs_total", "Epoch ticks.", e.epochs);
        counter(b, "courier_coordinator_decisions_total", "Scheduler runs (epochs, arrivals, completions).", e.decisions);
        gauge(b, "courier_coordinator_decision_seconds_last", "Time of the last scheduler run.", e.lastDecisionNanos / 1e9);
        gauge(b, "courier_coordinator_decision_seconds_max", "Longest scheduler run.", e.maxDecisionNanos / 1e9);
        counter(b, "courier_coordinator_decision_seconds_sum", "Total time in scheduler runs.", e.totalDecisionNanos / 1e9);
        counter(b, "courier_coordinator_decision_cpu_seconds_sum", "CPU time of the scheduling thread in scheduler runs.",
                e.totalDecisionCpuNanos / 1e9);
        gauge(b, "courier_coordinator_epoch_gap_seconds_max", "Longest gap between two epoch ticks.", e.maxEpochGapNanos / 1e9);
        counter(b, "courier_coordinator_late_epochs_total", "Epoch ticks more than twice the epoch after the previous.",
                e.lateEpochs);
        counter(b, "courier_coordinator_skipped_epochs_total",
                "Epoch boundaries skipped because the previous round overran.", e.skippedEpochs);
        counter(b, "courier_coordinator_kept_epochs_total",
                "Epoch ticks that ran and finished their decision before the next boundary.", e.keptEpochs);
        gauge(b, "courier_coordinator_tick_lateness_seconds_max", "Latest start of an epoch tick after its boundary.",
                e.tickLateness.maxNanos() / 1e9);
        counter(b, "courier_coordinator_reports_total", "Epoch reports received.", e.reportsReceived);
        counter(b, "courier_coordinator_reports_rejected_total", "Reports from unknown nodes.", e.reportsRejected);
        counter(b, "courier_coordinator_report_rows_rejected_total", "Report rows dropped (unknown job or node).",
                e.rowsRejected);
        counter(b, "courier_coordinator_decision_messages_total", "Decision updates pushed to nodes.",
                e.decisionMessagesSent);
        counter(b, "courier_coordinator_report_acks_total", "Report acknowledgements sent (nodes that heard nothing"
                + " else for the heartbeat interval).", e.reportAcksSent);
        counter(b, "courier_coordinator_scheduler_failures_total", "Scheduler runs that threw.", e.schedulerFailures);
        header(b, "courier_coflow_rate_bytes_per_second", "Sum of the decided rates of a coflow's flows.", "gauge");
        for (CoordinatorStatus.CoflowStatus c : s.coflows()) {
            sample(b, "courier_coflow_rate_bytes_per_second", c.jobId, c.rateBytesPerSecond);
        }
        header(b, "courier_coflow_rank", "Position of a coflow in the order (-1 for rate-based schedulers).", "gauge");
        for (CoordinatorStatus.CoflowStatus c : s.coflows()) {
            sample(b, "courier_coflow_rank", c.jobId, c.rank);
        }
        header(b, "courier_coflow_bytes_sent", "Bytes a coflow's flows have sent.", "gauge");
        for (CoordinatorStatus.CoflowStatus c : s.coflows()) {
            sample(b, "courier_coflow_bytes_sent", c.jobId, c.bytesSent);
        }
        header(b, "courier_coflow_bytes_pending", "Bytes pending at a coflow's senders.", "gauge");
        for (CoordinatorStatus.CoflowStatus c : s.coflows()) {
            sample(b, "courier_coflow_bytes_pending", c.jobId, c.bytesPending);
        }
        return b.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static void gauge(StringBuilder b, String name, String help, double v) {
        header(b, name, help, "gauge");
        b.append(name).append(' ').append(num(v)).append('\n');
    }

    private static void counter(StringBuilder b, String name, String help, double v) {
        header(b, name, help, "counter");
        b.append(name).append(' ').append(num(v)).append('\n');
    }

    private static void header(StringBuilder b, String name, String help, String type) {
        b.append("# HELP ").append(name).append(' ').append(help).append('\n');
        b.append("# TYPE ").append(name).append(' ').append(type).append('\n');
    }

    private static void sample(StringBuilder b, String name, String job, double v) {
        b.append(name).append("{job=\"").append(escape(job)).append("\"} ").append(num(v)).append('\n');
    }

    static String escape(String label) {
        return label.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }

    private static String num(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        return String.format(Locale.ROOT, "%.9g", v);
    }
}
