package io.courier.bench.netemu;

import java.io.IOException;

/**
 * The machine's aggregate CPU times from the first line of {@code /proc/stat} (clock ticks): busy (everything but
 * idle and iowait), softirq (where the emulated links, bridge and TCP receive path run), total. Immutable.
 */
record CpuTimes(long busy, long softirq, long total) {
    /** @throws IOException naming the problem, for text that is not /proc/stat */
    static CpuTimes parse(String procStat) throws IOException {
        String first = procStat.split("\n", 2)[0].trim();
        String[] f = first.split("\\s+");
        if (f.length < 8 || !f[0].equals("cpu")) {
            throw new IOException("/proc/stat: first line is not the aggregate cpu line: '" + first + "'");
        }
        long total = 0;
        long[] v = new long[f.length - 1];
        try {
            // user nice system idle iowait irq softirq steal [guest guest_nice: already inside user/nice]
            for (int i = 1; i < f.length && i <= 8; i++) {
                v[i - 1] = Long.parseLong(f[i]);
                total += v[i - 1];
            }
        } catch (NumberFormatException e) {
            throw new IOException("/proc/stat: non-numeric field in '" + first + "'");
        }
        long idle = v[3] + v[4];
        return new CpuTimes(total - idle, v[6], total);
    }

    /** Cores busy between {@code before} and this sample, on a machine of {@code cpus} CPUs. */
    double busyCoresSince(CpuTimes before, int cpus) {
        long dt = total - before.total;
        return dt <= 0 ? 0 : cpus * (double) (busy - before.busy) / dt;
    }

    double softirqCoresSince(CpuTimes before, int cpus) {
        long dt = total - before.total;
        return dt <= 0 ? 0 : cpus * (double) (softirq - before.softirq) / dt;
    }

    /** utime + stime (ticks) of a process from its {@code /proc/<pid>/stat} line. */
    static long processTicks(String pidStat) throws IOException {
        int close = pidStat.lastIndexOf(')');
        if (close < 0) {
            throw new IOException("/proc/<pid>/stat: no ')' in '" + TcQdiscStats.abbreviate(pidStat) + "'");
        }
        String[] f = pidStat.substring(close + 2).trim().split("\\s+");
        // After "pid (comm) ": state is field 3 of the full line, utime 14 and stime 15 -> indexes 11 and 12 here.
        if (f.length < 13) {
            throw new IOException("/proc/<pid>/stat: too few fields in '" + TcQdiscStats.abbreviate(pidStat) + "'");
        }
        return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }
}
