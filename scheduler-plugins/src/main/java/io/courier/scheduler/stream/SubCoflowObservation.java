package io.courier.scheduler.stream;

import io.courier.scheduler.model.CoflowId;

/**
 * What one receiver knows about one of its sub-coflows at an epoch (SCHEDULERS.md §7): the many-to-one part of
 * coflow {@code c} that ends at this receiver. Everything here is observable at the receiver itself or arrives
 * piggy-backed on data, so a proxy can build it without a coordinator. Immutable; sizes are bytes.
 *
 * <ul>
 *   <li>{@code bytesReceived} — {@code x_{c,r}}, bytes of all flows of {@code c} into this receiver, finished
 *       flows included;</li>
 *   <li>{@code flowsSeen}, {@code flowsFinished} — {@code n_{c,r}} and {@code n^fin_{c,r}};</li>
 *   <li>{@code relayedBytes} — {@code S_{c,r}}: bytes received by peer receivers as relayed by shared senders
 *       (Information-Relay), plus the final sizes of completed child sub-coflows (Child-to-Parent);</li>
 *   <li>{@code subCoflows} — {@code m_{c,r}}, sub-coflows of the same entity discovered so far
 *       (Weighted-Priority), 1 when unknown;</li>
 *   <li>{@code stalled} — some unfinished flow of the sub-coflow received nothing since the previous epoch; only
 *       the optional starvation rule reads it.</li>
 * </ul>
 */
public final class SubCoflowObservation {
    private final CoflowId coflow;
    private final double bytesReceived;
    private final int flowsSeen;
    private final int flowsFinished;
    private final double relayedBytes;
    private final int subCoflows;
    private final boolean stalled;

    private SubCoflowObservation(Builder b) {
        this.coflow = b.coflow;
        this.bytesReceived = b.bytesReceived;
        this.flowsSeen = b.flowsSeen;
        this.flowsFinished = b.flowsFinished;
        this.relayedBytes = b.relayedBytes;
        this.subCoflows = b.subCoflows;
        this.stalled = b.stalled;
    }

    /** A builder with {@code S = 0}, {@code m = 1}, not stalled; {@code x} and {@code n} must be set. */
    public static Builder builder(CoflowId coflow) {
        return new Builder(coflow);
    }

    public CoflowId coflow() {
        return coflow;
    }

    /** {@code x_{c,r}} in bytes. */
    public double bytesReceived() {
        return bytesReceived;
    }

    /** {@code n_{c,r}}. */
    public int flowsSeen() {
        return flowsSeen;
    }

    /** {@code n^fin_{c,r}}. */
    public int flowsFinished() {
        return flowsFinished;
    }

    /** {@code S_{c,r}} in bytes. */
    public double relayedBytes() {
        return relayedBytes;
    }

    /** {@code m_{c,r}}. */
    public int subCoflows() {
        return subCoflows;
    }

    public boolean stalled() {
        return stalled;
    }

    @Override
    public String toString() {
        return "SubCoflowObservation(" + coflow + " x=" + bytesReceived + " n=" + flowsSeen + " nfin=" + flowsFinished
                + " S=" + relayedBytes + " m=" + subCoflows + (stalled ? " stalled" : "") + ")";
    }

    /** Builds an observation; {@link #build()} checks the values together and names the coflow on error. */
    public static final class Builder {
        private final CoflowId coflow;
        private double bytesReceived = Double.NaN;
        private int flowsSeen = -1;
        private int flowsFinished;
        private double relayedBytes;
        private int subCoflows = 1;
        private boolean stalled;

        private Builder(CoflowId coflow) {
            if (coflow == null) {
                throw new IllegalArgumentException("sub-coflow observation needs a coflow id");
            }
            this.coflow = coflow;
        }

        public Builder bytesReceived(double bytes) {
            this.bytesReceived = bytes;
            return this;
        }

        /** {@code n} flows seen so far, {@code finished} of them completed. */
        public Builder flows(int seen, int finished) {
            this.flowsSeen = seen;
            this.flowsFinished = finished;
            return this;
        }

        public Builder relayedBytes(double bytes) {
            this.relayedBytes = bytes;
            return this;
        }

        public Builder subCoflows(int m) {
            this.subCoflows = m;
            return this;
        }

        public Builder stalled(boolean value) {
            this.stalled = value;
            return this;
        }

        public SubCoflowObservation build() {
            // The message prefix is built only on a failure: observations are built per (coflow, receiver) and epoch.
            if (!(bytesReceived >= 0) || Double.isInfinite(bytesReceived)) {
                throw new IllegalArgumentException(where() + "bytes received x must be finite and >= 0, got "
                        + bytesReceived);
            }
            if (flowsSeen < 1) {
                throw new IllegalArgumentException(where() + "a receiver observes a sub-coflow only through its flows,"
                        + " so flows seen n must be >= 1, got " + flowsSeen);
            }
            if (flowsFinished < 0 || flowsFinished > flowsSeen) {
                throw new IllegalArgumentException(where() + "finished flows must be in [0, n=" + flowsSeen + "], got "
                        + flowsFinished);
            }
            if (!(relayedBytes >= 0) || Double.isInfinite(relayedBytes)) {
                throw new IllegalArgumentException(where() + "relayed bytes S must be finite and >= 0, got "
                        + relayedBytes);
            }
            if (subCoflows < 1) {
                throw new IllegalArgumentException(where() + "sub-coflow count m must be >= 1, got " + subCoflows);
            }
            return new SubCoflowObservation(this);
        }

        private String where() {
            return "Stream observation of " + coflow + ": ";
        }
    }
}
