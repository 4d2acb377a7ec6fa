package io.courier.coordinator.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.courier.coordinator.status.CoordinatorStatus;

/** Renders a {@link CoordinatorStatus} as the JSON of {@code GET /api/v1/status} (documented in docs/coordinator.md). */
public final class StatusJson {
    private final ObjectMapper mapper = new ObjectMapper();

    public byte[] render(CoordinatorStatus s) {
        ObjectNode root = mapper.createObjectNode();
        root.put("coordinatorId", s.coordinatorId());
        root.put("scheduler", s.scheduler());
        root.put("schedulerType", s.schedulerType());
        root.put("epochMillis", s.epochMillis());
        root.put("uptimeMillis", s.uptimeMillis());
        CoordinatorStatus.EpochStats e = s.epochs();
        ObjectNode ep = root.putObject("epochs");
        ep.put("epochs", e.epochs);
        ep.put("decisions", e.decisions);
        ep.put("lastDecisionMillis", e.lastDecisionNanos / 1e6);
        ep.put("maxDecisionMillis", e.maxDecisionNanos / 1e6);
        ep.put("meanDecisionMillis", e.decisions == 0 ? 0.0 : e.totalDecisionNanos / 1e6 / e.decisions);
        ep.put("lastDecisionCpuMillis", e.lastDecisionCpuNanos / 1e6);
        ep.put("meanDecisionCpuMillis", e.decisions == 0 ? 0.0 : e.totalDecisionCpuNanos / 1e6 / e.decisions);
        ep.put("lastEpochGapMillis", e.lastEpochGapNanos / 1e6);
        ep.put("maxEpochGapMillis", e.maxEpochGapNanos / 1e6);
        ep.put("lateEpochs", e.lateEpochs);
        ep.put("skippedEpochs", e.skippedEpochs);
        ep.put("keptEpochs", e.keptEpochs);
        ep.put("tickLatenessP50Millis", finiteOr(e.tickLateness.quantileUpperMillis(0.5), -1));
        ep.put("tickLatenessP99Millis", finiteOr(e.tickLateness.quantileUpperMillis(0.99), -1));
        ep.put("tickLatenessMaxMillis", e.tickLateness.maxNanos() / 1e6);
        ep.put("reportsReceived", e.reportsReceived);
        ep.put("reportsRejected", e.reportsRejected);
        ep.put("rowsRejected", e.rowsRejected);
        ep.put("decisionMessagesSent", e.decisionMessagesSent);
        ep.put("reportAcksSent", e.reportAcksSent);
        ep.put("schedulerFailures", e.schedulerFailures);
        ArrayNode nodes = root.putArray("nodes");
        for (CoordinatorStatus.NodeStatus n : s.nodes()) {
            ObjectNode o = nodes.addObject();
            o.put("nodeId", n.nodeId);
            o.put("shuffleEndpoint", n.shuffleEndpoint);
            o.put("proxyEndpoint", n.proxyEndpoint);
            o.put("upBytesPerSecond", n.upBytesPerSecond);
            o.put("downBytesPerSecond", n.downBytesPerSecond);
            o.put("millisSinceReport", n.millisSinceReport);
        }
        ArrayNode coflows = root.putArray("coflows");
        for (CoordinatorStatus.CoflowStatus c : s.coflows()) {
            ObjectNode o = coflows.addObject();
            o.put("jobId", c.jobId);
            o.put("coflowId", c.coflowId);
            o.put("weight", c.weight);
            o.put("weightSource", c.weightSource);
            o.put("arrivalSeconds", c.arrivalSeconds);
            o.put("rank", c.rank);
            o.put("flows", c.flows);
            o.put("bytesSent", c.bytesSent);
            o.put("bytesPending", c.bytesPending);
            o.put("rateBytesPerSecond", c.rateBytesPerSecond);
        }
        ArrayNode flows = root.putArray("flows");
        for (CoordinatorStatus.FlowStatus f : s.flows()) {
            ObjectNode o = flows.addObject();
            o.put("jobId", f.jobId);
            o.put("src", f.srcNode);
            o.put("dst", f.dstNode);
            o.put("bytesSent", f.bytesSent);
            o.put("bytesPending", f.bytesPending);
            o.put("totalBytes", f.totalBytes);
            o.put("measuredRate", f.measuredRate);
            o.put("finished", f.finished);
            o.put("rateBytesPerSecond", f.rate);
            o.put("priority", f.priority);
        }
        try {
            return mapper.writerWithDefaultPrettyPrinter().writeValueAsBytes(root);
        } catch (com.fasterxml.jackson.core.JsonProcessingException ex) {
            throw new IllegalStateException("cannot render the status as JSON", ex);
        }
    }

    /** JSON has no NaN or infinity: an empty or open-ended quantile is written as the given stand-in. */
    private static double finiteOr(double v, double standIn) {
        return Double.isNaN(v) || Double.isInfinite(v) ? standIn : v;
    }
}
