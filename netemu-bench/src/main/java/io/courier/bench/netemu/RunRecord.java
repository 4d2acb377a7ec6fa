package io.courier.bench.netemu;

import java.util.List;

/**
 * Everything measured in one run of one scenario in one mode. Times in seconds; counters are deltas over the run
 * summed over hosts (switch: over ports). {@code valid} is false when a validity check failed; the reasons say
 * which. {@code mode}: stock, courier or courier+&lt;scheduler&gt; ({@link Mode#label}). {@code agentCores}: the
 * agent JVMs' CPU (the emulated hosts); {@code coordinatorCores}: the coordinator process's, apart (0 without one).
 * {@code cpu}: the agents' CPU-seconds over the run window, in all and per thread role, with the segments and bytes
 * the run moved. Immutable.
 */
record RunRecord(String family, String label, double x, String mode, int repeat, String startedAt,
                 List<Double> ccts, double cct, double medianCct, double idealSec, double efficiency,
                 long switchDrops, long switchPackets, double lossPct, long hostNicDrops,
                 long retransSegs, long timeouts, long synRetrans, long lossProbes, long activeOpens,
                 int maxConnPerHost, int maxConnPerPair,
                 double busyCores, double softirqCores, double agentCores, double coordinatorCores,
                 double otherCoresBefore,
                 double loadavg1, double wallSec, List<String> errors, boolean valid, List<String> invalidReasons,
                 RunCpu cpu) {
    RunRecord {
        ccts = List.copyOf(ccts);
        errors = List.copyOf(errors);
        invalidReasons = List.copyOf(invalidReasons);
    }
}
