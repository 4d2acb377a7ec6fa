package io.courier.bench.netemu;

import java.util.List;

/**
 * What one run cost the agents (the emulated hosts, summed over hosts): {@code agentSec}, their CPU-seconds over
 * the run window ({@code /proc/<pid>/stat} utime+stime, ticks / {@link #USER_HZ}), and the same window per thread
 * role ({@code roles}), and per agent ({@code agentSecByHost}, host 1 first); the work it moved: {@code segments} (map output segments fetched, remote and local) and
 * {@code bytes} (their bytes). Immutable.
 */
record RunCpu(long segments, long bytes, double agentSec, List<Double> agentSecByHost, RoleCpu roles) {
    /** The unit of /proc's utime and stime (USER_HZ, fixed at 100 for user space on Linux whatever the kernel HZ). */
    static final int USER_HZ = 100;

    RunCpu {
        agentSecByHost = List.copyOf(agentSecByHost);
    }

    /** The agents' CPU that no thread sample caught (see {@link ThreadCpuSampler}). */
    double unattributedSec() {
        return roles.unattributedSec(agentSec);
    }
}
