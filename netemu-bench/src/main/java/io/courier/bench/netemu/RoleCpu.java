package io.courier.bench.netemu;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

/**
 * The agents' CPU-seconds over one run window per {@link ThreadRole} (summed over hosts), as
 * {@link ThreadCpuSampler} measured them; {@code threads}: how many threads it saw; {@code samples} and
 * {@code maxGapMillis}: how often it sampled and the longest time between two samples (what a thread could use
 * unseen); {@code error}: why sampling was incomplete (null when it was not). Immutable.
 */
record RoleCpu(Map<ThreadRole, Double> seconds, int threads, int samples, double maxGapMillis, String error) {
    RoleCpu {
        EnumMap<ThreadRole, Double> m = new EnumMap<>(ThreadRole.class);
        for (ThreadRole r : ThreadRole.values()) {
            m.put(r, seconds.getOrDefault(r, 0.0));
        }
        seconds = Collections.unmodifiableMap(m);
    }

    /** No measurement (every role NaN): for runs without a sampler. */
    static RoleCpu none(String why) {
        EnumMap<ThreadRole, Double> m = new EnumMap<>(ThreadRole.class);
        for (ThreadRole r : ThreadRole.values()) {
            m.put(r, Double.NaN);
        }
        return new RoleCpu(m, 0, 0, Double.NaN, why);
    }

    double of(ThreadRole role) {
        return seconds.get(role);
    }

    /** CPU-seconds of all roles. */
    double attributedSec() {
        double s = 0;
        for (double v : seconds.values()) {
            s += v;
        }
        return s;
    }

    /** The process total's share no thread sample caught (see {@link ThreadCpuSampler}'s error bound). */
    double unattributedSec(double processTotalSec) {
        return processTotalSec - attributedSec();
    }
}
