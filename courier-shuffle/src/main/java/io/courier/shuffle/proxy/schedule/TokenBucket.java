package io.courier.shuffle.proxy.schedule;

/**
 * Paces one connection at a rate in bytes per second. A block may be sent whenever the bucket is not in
 * debt; sending takes its size even if that leaves the bucket in debt, so blocks larger than the burst
 * still pass and the long-run rate is exact. Not thread-safe: owned by one connection's event loop.
 */
public final class TokenBucket {
    private final double burst;
    private double rate;
    private double tokens;
    private long lastNanos;

    public TokenBucket(double rate, double burst, long nowNanos) {
        this.burst = burst;
        this.rate = rate;
        this.tokens = 0;
        this.lastNanos = nowNanos;
    }

    /** Changes the rate; tokens earned so far at the old rate are kept. */
    public void setRate(double newRate, long nowNanos) {
        refill(nowNanos);
        this.rate = newRate;
    }

    public double rate() {
        return rate;
    }

    /** Whether a finite rate applies (an infinite one is "not paced": every block may go at once). */
    public boolean paced() {
        return !Double.isInfinite(rate);
    }

    /** Whether a block may be sent now. */
    public boolean ready(long nowNanos) {
        if (!paced()) {
            return true;
        }
        refill(nowNanos);
        return tokens >= 0;
    }

    public void take(long bytes) {
        if (paced()) {
            tokens -= bytes;
        }
    }

    /** Nanoseconds until the bucket is out of debt (0 when ready; Long.MAX_VALUE at rate 0). */
    public long nanosUntilReady(long nowNanos) {
        if (Double.isInfinite(rate) || ready(nowNanos)) {
            return 0;
        }
        if (rate <= 0) {
            return Long.MAX_VALUE;
        }
        return (long) Math.ceil(-tokens / rate * 1e9);
    }

    private void refill(long nowNanos) {
        if (nowNanos > lastNanos && !Double.isInfinite(rate)) {
            tokens = Math.min(burst, tokens + rate * (nowNanos - lastNanos) / 1e9);
        }
        lastNanos = Math.max(lastNanos, nowNanos);
    }
}
