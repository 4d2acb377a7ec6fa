package io.courier.coordinator.protocol;

import java.util.List;

/**
 * The coordinator took a report into account. {@code unknownJobs} lists jobs named in the report that the
 * coordinator has no coflow for (their rows were dropped): the proxy re-sends their {@link CoflowRegistered}.
 */
public final class ReportAck implements ClientCommand, CoordinatorMessage {
    private final long epoch;
    private final List<String> unknownJobs;

    public ReportAck(long epoch, List<String> unknownJobs) {
        this.epoch = Checks.nonNegative("epoch", epoch);
        this.unknownJobs = Checks.list("unknown jobs", unknownJobs);
    }

    public long epoch() {
        return epoch;
    }

    public List<String> unknownJobs() {
        return unknownJobs;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ReportAck && ((ReportAck) o).epoch == epoch
                && ((ReportAck) o).unknownJobs.equals(unknownJobs);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(epoch);
    }

    @Override
    public String toString() {
        return "ReportAck(epoch " + epoch + (unknownJobs.isEmpty() ? "" : ", unknown " + unknownJobs) + ")";
    }
}
