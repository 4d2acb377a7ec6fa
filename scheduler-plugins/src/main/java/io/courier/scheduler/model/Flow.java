package io.courier.scheduler.model;

import java.util.Arrays;

/**
 * One flow of a coflow: bytes moving from host {@code src} to host {@code dst}, optionally across extra
 * links ({@code path}, indices into {@link Network#linkCount()}). Immutable; build with {@link #builder}.
 *
 * <p>The size is optional (unknown sizes are the norm in a live cluster), and it can be hidden: a
 * non-clairvoyant scheduler gets flows whose {@link #size()} and {@link #remaining()} throw
 * {@link HiddenInformationException} (SCHEDULERS.md §0.2).
 */
public final class Flow {
    private static final int[] NO_PATH = new int[0];

    private final FlowId id;
    private final CoflowId coflow;
    private final int src;
    private final int dst;
    private final int[] path;
    private final double sent;
    private final double size;          // NaN = unknown
    private final boolean sizeHidden;
    private final boolean finished;
    private final double measuredRate;  // NaN = not measured
    private final double lastDesiredRate; // NaN = never scheduled
    // The size-hiding twin, made on first use: a simulator hands the same flow to a non-clairvoyant
    // scheduler at many decisions. Not part of the value. A racy double build is harmless (all the twin's
    // fields are final, so an unsynchronised reader sees it complete).
    private Flow hiddenTwin;

    private Flow(Builder b, boolean sizeHidden) {
        this.id = b.id;
        this.coflow = b.coflow;
        this.src = b.src;
        this.dst = b.dst;
        this.path = b.path;
        this.sent = b.sent;
        this.size = b.size;
        this.sizeHidden = sizeHidden;
        this.finished = b.finished;
        this.measuredRate = b.measuredRate;
        this.lastDesiredRate = b.lastDesiredRate;
    }

    public static Builder builder(FlowId id, CoflowId coflow, int src, int dst) {
        return new Builder(id, coflow, src, dst);
    }

    /** Shorthand for tests and fixtures: a flow with a known size and nothing sent. */
    public static Flow of(long id, long coflow, int src, int dst, double size) {
        return builder(FlowId.of(id), CoflowId.of(coflow), src, dst).size(size).build();
    }

    public FlowId id() {
        return id;
    }

    public CoflowId coflow() {
        return coflow;
    }

    public int src() {
        return src;
    }

    public int dst() {
        return dst;
    }

    /** Extra links crossed by the flow (indices of {@link Network} links); empty in a pure big switch. */
    public int[] path() {
        return path.clone();
    }

    int pathLength() {
        return path.length;
    }

    int pathLink(int k) {
        return path[k];
    }

    /** Bytes sent so far (cumulative). */
    public double sent() {
        return sent;
    }

    /** True when the total size is known and visible to the reader. */
    public boolean hasSize() {
        return !sizeHidden && !Double.isNaN(size);
    }

    /** Total size in bytes. Throws if the size is unknown or hidden from the current scheduler. */
    public double size() {
        if (sizeHidden) {
            throw new HiddenInformationException("size of " + id + " (" + coflow
                    + ") is hidden: the scheduler did not declare Info.SIZES");
        }
        if (Double.isNaN(size)) {
            throw new IllegalStateException("size of " + id + " (" + coflow + ") is unknown");
        }
        return size;
    }

    /** Remaining bytes, {@code max(0, size - sent)}; same visibility rules as {@link #size()}. */
    public double remaining() {
        return Math.max(0.0, size() - sent);
    }

    public boolean finished() {
        return finished;
    }

    public boolean hasMeasuredRate() {
        return !Double.isNaN(measuredRate);
    }

    /** Average throughput over the last measurement interval, bytes/s. */
    public double measuredRate() {
        if (Double.isNaN(measuredRate)) {
            throw new IllegalStateException("measured rate of " + id + " (" + coflow + ") is not known");
        }
        return measuredRate;
    }

    public boolean hasLastDesiredRate() {
        return !Double.isNaN(lastDesiredRate);
    }

    /** The rate the scheduler assigned in its previous decision, bytes/s. */
    public double lastDesiredRate() {
        if (Double.isNaN(lastDesiredRate)) {
            throw new IllegalStateException("no previous desired rate for " + id + " (" + coflow + ")");
        }
        return lastDesiredRate;
    }

    /** A copy whose size cannot be read (for non-clairvoyant schedulers). */
    public Flow withSizeHidden() {
        if (sizeHidden) {
            return this;
        }
        Flow twin = hiddenTwin;
        if (twin == null) {
            twin = new Flow(toBuilder(), true);
            hiddenTwin = twin;
        }
        return twin;
    }

    public Builder toBuilder() {
        Builder b = new Builder(id, coflow, src, dst);
        b.path = path;
        b.sent = sent;
        b.size = size;
        b.finished = finished;
        b.measuredRate = measuredRate;
        b.lastDesiredRate = lastDesiredRate;
        return b;
    }

    @Override
    public String toString() {
        return id + "[" + coflow + " " + src + "->" + dst + " sent=" + sent
                + (sizeHidden ? " size=hidden" : Double.isNaN(size) ? "" : " size=" + size)
                + (finished ? " finished" : "") + "]";
    }

    /** Builds a {@link Flow}; every setter validates its argument and names the flow in its message. */
    public static final class Builder {
        private final FlowId id;
        private final CoflowId coflow;
        private final int src;
        private final int dst;
        private int[] path = NO_PATH;
        private double sent;
        private double size = Double.NaN;
        private boolean finished;
        private double measuredRate = Double.NaN;
        private double lastDesiredRate = Double.NaN;

        private Builder(FlowId id, CoflowId coflow, int src, int dst) {
            if (id == null || coflow == null) {
                throw new IllegalArgumentException("flow id and coflow id must not be null");
            }
            if (src < 0 || dst < 0) {
                throw new IllegalArgumentException(id + " (" + coflow + "): host indices must be >= 0, got "
                        + src + "->" + dst);
            }
            this.id = id;
            this.coflow = coflow;
            this.src = src;
            this.dst = dst;
        }

        public Builder path(int... links) {
            for (int l : links) {
                if (l < 0) {
                    throw new IllegalArgumentException(id + ": link index must be >= 0, got " + l);
                }
            }
            this.path = links.length == 0 ? NO_PATH : links.clone();
            return this;
        }

        public Builder sent(double bytes) {
            this.sent = nonNegative("sent", bytes);
            return this;
        }

        public Builder size(double bytes) {
            this.size = nonNegative("size", bytes);
            return this;
        }

        public Builder unknownSize() {
            this.size = Double.NaN;
            return this;
        }

        public Builder finished(boolean value) {
            this.finished = value;
            return this;
        }

        public Builder measuredRate(double bytesPerSecond) {
            this.measuredRate = nonNegative("measured rate", bytesPerSecond);
            return this;
        }

        public Builder lastDesiredRate(double bytesPerSecond) {
            this.lastDesiredRate = nonNegative("last desired rate", bytesPerSecond);
            return this;
        }

        private double nonNegative(String what, double v) {
            if (!Double.isFinite(v) || v < 0) {
                throw new IllegalArgumentException(id + " (" + coflow + "): " + what
                        + " must be a finite number >= 0, got " + v);
            }
            return v;
        }

        public Flow build() {
            return new Flow(this, false);
        }
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Flow)) {
            return false;
        }
        Flow f = (Flow) o;
        return id.equals(f.id) && coflow.equals(f.coflow) && src == f.src && dst == f.dst
                && Arrays.equals(path, f.path) && Double.compare(sent, f.sent) == 0
                && Double.compare(size, f.size) == 0 && sizeHidden == f.sizeHidden && finished == f.finished
                && Double.compare(measuredRate, f.measuredRate) == 0
                && Double.compare(lastDesiredRate, f.lastDesiredRate) == 0;
    }

    @Override
    public int hashCode() {
        return id.hashCode() * 31 + coflow.hashCode();
    }
}
