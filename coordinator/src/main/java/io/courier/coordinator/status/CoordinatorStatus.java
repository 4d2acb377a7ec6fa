package io.courier.coordinator.status;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What the operator sees (GET /api/v1/status, /metrics): the coordinator's nodes, coflows and the last
 * epoch's per-flow decisions, plus epoch-keeping and decision-time counters. An immutable snapshot built
 * by the scheduling actor on request.
 */
public final class CoordinatorStatus {
    private final String coordinatorId;
    private final String scheduler;
    private final String schedulerType;
    private final long epochMillis;
    private final long uptimeMillis;
    private final EpochStats epochs;
    private final List<NodeStatus> nodes;
    private final List<CoflowStatus> coflows;
    private final List<FlowStatus> flows;

    public CoordinatorStatus(String coordinatorId, String scheduler, String schedulerType, long epochMillis,
            long uptimeMillis, EpochStats epochs, List<NodeStatus> nodes, List<CoflowStatus> coflows,
            List<FlowStatus> flows) {
        this.coordinatorId = coordinatorId;
        this.scheduler = scheduler;
        this.schedulerType = schedulerType;
        this.epochMillis = epochMillis;
        this.uptimeMillis = uptimeMillis;
        this.epochs = epochs;
        this.nodes = Collections.unmodifiableList(new ArrayList<NodeStatus>(nodes));
        this.coflows = Collections.unmodifiableList(new ArrayList<CoflowStatus>(coflows));
        this.flows = Collections.unmodifiableList(new ArrayList<FlowStatus>(flows));
    }

    public String coordinatorId() {
        return coordinatorId;
    }

    public String scheduler() {
        return scheduler;
    }

    /** RATE_BASED or ORDER_BASED. */
    public String schedulerType() {
        return schedulerType;
    }

    public long epochMillis() {
        return epochMillis;
    }

    public long uptimeMillis() {
        return uptimeMillis;
    }

    public EpochStats epochs() {
        return epochs;
    }

    public List<NodeStatus> nodes() {
        return nodes;
    }

    public List<CoflowStatus> coflows() {
        return coflows;
    }

    public List<FlowStatus> flows() {
        return flows;
    }

    /** Epoch keeping, decision time and message counters since the coordinator started. */
    public static final class EpochStats {
        public final long epochs;
        public final long decisions;
        public final long lastDecisionNanos;
        public final long maxDecisionNanos;
        public final long totalDecisionNanos;
        /** CPU time of the scheduling thread in the last round and in all rounds (wall time minus preemption). */
        public final long lastDecisionCpuNanos;
        public final long totalDecisionCpuNanos;
        public final long lastEpochGapNanos;
        public final long maxEpochGapNanos;
        public final long lateEpochs;
        /** Epoch boundaries that passed while the previous round was still running (not run, not caught up). */
        public final long skippedEpochs;
        public final long reportsReceived;
        public final long reportsRejected;
        public final long rowsRejected;
        public final long decisionMessagesSent;
        public final long schedulerFailures;
        /** Epoch boundaries whose tick ran and finished its decision before the next boundary. */
        public final long keptEpochs;
        /** How late each tick started after its boundary. */
        public final TickLateness tickLateness;
        /** Report acknowledgements sent (a node that heard nothing else for the heartbeat interval gets one). */
        public final long reportAcksSent;

        public EpochStats(long epochs, long decisions, long lastDecisionNanos, long maxDecisionNanos,
                long totalDecisionNanos, long lastDecisionCpuNanos, long totalDecisionCpuNanos, long lastEpochGapNanos, long maxEpochGapNanos, long lateEpochs,
                long skippedEpochs, long reportsReceived, long reportsRejected, long rowsRejected, long decisionMessagesSent,
                long schedulerFailures, long keptEpochs, TickLateness tickLateness, long reportAcksSent) {
            this.epochs = epochs;
            this.decisions = decisions;
            this.lastDecisionNanos = lastDecisionNanos;
            this.maxDecisionNanos = maxDecisionNanos;
            this.totalDecisionNanos = totalDecisionNanos;
            this.lastDecisionCpuNanos = lastDecisionCpuNanos;
            this.totalDecisionCpuNanos = totalDecisionCpuNanos;
            this.lastEpochGapNanos = lastEpochGapNanos;
            this.maxEpochGapNanos = maxEpochGapNanos;
            this.lateEpochs = lateEpochs;
            this.skippedEpochs = skippedEpochs;
            this.reportsReceived = reportsReceived;
            this.reportsRejected = reportsRejected;
            this.rowsRejected = rowsRejected;
            this.decisionMessagesSent = decisionMessagesSent;
            this.schedulerFailures = schedulerFailures;
            this.keptEpochs = keptEpochs;
            this.tickLateness = tickLateness;
            this.reportAcksSent = reportAcksSent;
        }
    }

    /** One registered node. {@code millisSinceReport} is -1 before its first report. */
    public static final class NodeStatus {
        public final String nodeId;
        public final String shuffleEndpoint;
        public final String proxyEndpoint;
        public final long upBytesPerSecond;
        public final long downBytesPerSecond;
        public final long millisSinceReport;

        public NodeStatus(String nodeId, String shuffleEndpoint, String proxyEndpoint, long upBytesPerSecond,
                long downBytesPerSecond, long millisSinceReport) {
            this.nodeId = nodeId;
            this.shuffleEndpoint = shuffleEndpoint;
            this.proxyEndpoint = proxyEndpoint;
            this.upBytesPerSecond = upBytesPerSecond;
            this.downBytesPerSecond = downBytesPerSecond;
            this.millisSinceReport = millisSinceReport;
        }
    }

    /** One active coflow; {@code rank} is its position in an order-based decision (-1 for rate-based). */
    public static final class CoflowStatus {
        public final String jobId;
        public final long coflowId;
        public final double weight;
        public final String weightSource;
        public final double arrivalSeconds;
        public final int rank;
        public final int flows;
        public final long bytesSent;
        public final long bytesPending;
        public final double rateBytesPerSecond;

        public CoflowStatus(String jobId, long coflowId, double weight, String weightSource, double arrivalSeconds,
                int rank, int flows, long bytesSent, long bytesPending, double rateBytesPerSecond) {
            this.jobId = jobId;
            this.coflowId = coflowId;
            this.weight = weight;
            this.weightSource = weightSource;
            this.arrivalSeconds = arrivalSeconds;
            this.rank = rank;
            this.flows = flows;
            this.bytesSent = bytesSent;
            this.bytesPending = bytesPending;
            this.rateBytesPerSecond = rateBytesPerSecond;
        }
    }

    /** One unified flow with the last decision for it. */
    public static final class FlowStatus {
        public final String jobId;
        public final String srcNode;
        public final String dstNode;
        public final long bytesSent;
        public final long bytesPending;
        public final long totalBytes;
        public final double measuredRate;
        public final boolean finished;
        public final double rate;
        public final int priority;

        public FlowStatus(String jobId, String srcNode, String dstNode, long bytesSent, long bytesPending,
                long totalBytes, double measuredRate, boolean finished, double rate, int priority) {
            this.jobId = jobId;
            this.srcNode = srcNode;
            this.dstNode = dstNode;
            this.bytesSent = bytesSent;
            this.bytesPending = bytesPending;
            this.totalBytes = totalBytes;
            this.measuredRate = measuredRate;
            this.finished = finished;
            this.rate = rate;
            this.priority = priority;
        }
    }
}
