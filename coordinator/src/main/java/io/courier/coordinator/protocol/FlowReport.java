package io.courier.coordinator.protocol;

/**
 * What a proxy knows of one unified flow (one coflow's bytes from one node to another, Courier's Merge
 * granularity) at the end of an epoch. Byte counts are cumulative for the flow; {@code totalBytes} is
 * {@code -1} when the final size is unknown; {@code measuredRate} is bytes/s over the last epoch, or
 * {@code -1} when not measured. Immutable.
 */
public final class FlowReport {
    public static final long UNKNOWN_SIZE = -1;

    private final String jobId;
    private final String srcNode;
    private final String dstNode;
    private final long bytesSent;
    private final long bytesPending;
    private final long totalBytes;
    private final double measuredRate;
    private final boolean finished;

    public FlowReport(String jobId, String srcNode, String dstNode, long bytesSent, long bytesPending,
            long totalBytes, double measuredRate, boolean finished) {
        this.jobId = Checks.text("job id", jobId);
        this.srcNode = Checks.text("source node of " + jobId, srcNode);
        this.dstNode = Checks.text("destination node of " + jobId, dstNode);
        String where = jobId + " " + srcNode + "->" + dstNode;
        this.bytesSent = Checks.nonNegative("bytes sent of " + where, bytesSent);
        this.bytesPending = Checks.nonNegative("bytes pending of " + where, bytesPending);
        if (totalBytes < UNKNOWN_SIZE) {
            throw new IllegalArgumentException("total bytes of " + where + " must be >= 0 or -1 (unknown), got "
                    + totalBytes);
        }
        this.totalBytes = totalBytes;
        if (Double.isNaN(measuredRate) || Double.isInfinite(measuredRate)
                || (measuredRate < 0 && measuredRate != -1.0)) {
            throw new IllegalArgumentException("measured rate of " + where
                    + " must be a finite number >= 0 or -1 (not measured), got " + measuredRate);
        }
        this.measuredRate = measuredRate;
        this.finished = finished;
    }

    public String jobId() {
        return jobId;
    }

    public String srcNode() {
        return srcNode;
    }

    public String dstNode() {
        return dstNode;
    }

    public long bytesSent() {
        return bytesSent;
    }

    public long bytesPending() {
        return bytesPending;
    }

    /** The final size, or {@link #UNKNOWN_SIZE}. */
    public long totalBytes() {
        return totalBytes;
    }

    /** Bytes/s over the last epoch, or -1 when not measured. */
    public double measuredRate() {
        return measuredRate;
    }

    public boolean finished() {
        return finished;
    }

    /**
     * The flow's size as the coordinator schedules it: the final size when known, else what the sender has been
     * asked for so far (sent + pending).
     */
    public long size() {
        return totalBytes >= 0 ? Math.max(totalBytes, bytesSent) : bytesSent + bytesPending;
    }

    /**
     * The protocol's prediction of bytes sent {@code seconds} after this report, for clients that suppress reports
     * ({@link NodeReport}): growing at the measured rate from the reported count, never beyond the size. The
     * client's report gate and the coordinator use this one formula, so both agree on what needs no report.
     */
    public double predictedSent(double seconds) {
        if (finished || measuredRate <= 0 || seconds <= 0) {
            return bytesSent;
        }
        return Math.min(bytesSent + measuredRate * seconds, (double) size());
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof FlowReport)) {
            return false;
        }
        FlowReport r = (FlowReport) o;
        return jobId.equals(r.jobId) && srcNode.equals(r.srcNode) && dstNode.equals(r.dstNode)
                && bytesSent == r.bytesSent && bytesPending == r.bytesPending && totalBytes == r.totalBytes
                && Double.compare(measuredRate, r.measuredRate) == 0 && finished == r.finished;
    }

    @Override
    public int hashCode() {
        return (jobId.hashCode() * 31 + srcNode.hashCode()) * 31 + dstNode.hashCode();
    }

    @Override
    public String toString() {
        return "FlowReport(" + jobId + " " + srcNode + "->" + dstNode + " sent=" + bytesSent + " pending="
                + bytesPending + " total=" + totalBytes + " rate=" + measuredRate + (finished ? " finished" : "")
                + ")";
    }
}
