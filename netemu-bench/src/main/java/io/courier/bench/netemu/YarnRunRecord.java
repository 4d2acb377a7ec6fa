package io.courier.bench.netemu;

import java.util.List;

/**
 * One TeraSort of the YARN benchmark in one mode ({@code stock} or {@code courier}). Times in seconds; network
 * counters are deltas over the job, summed over hosts (switch: over ports); {@code valid} is false when a validity
 * check failed, and {@code invalidReasons} says which. Immutable.
 *
 * @param jobSec           submit to completion as the client saw it (includes TeraSort's input sampling)
 * @param shuffleMaxSec    slowest reducer: attempt start to shuffle end (reducers start after the last map)
 * @param shuffleSumSec    the same summed over reducers
 * @param maxConnPerHost   most TCP connections one host had open to other hosts at once (all traffic: shuffle,
 *                         HDFS, RPC, and the job client's: TeraSort's partition sampling leaves its readers open),
 *                         sampled every 20 ms
 * @param maxShuffleConnPerHost the same, only connections to or from the mode's shuffle port (stock: Hadoop's
 *                         ShuffleHandler, courier: the proxy)
 * @param maxShuffleConnPerPair the most such connections between two hosts
 * @param outputMatches    the sorted output is byte-identical to the first run's (SHA-256 per part file)
 * @param validated        TeraValidate found the output sorted, with the reference checksum
 */
record YarnRunRecord(int repeat, String mode, String jobId, String startedAt, double jobSec, double shuffleMaxSec,
                     double shuffleSumSec, long shuffleBytes, int maps, int reduces, int failedAttempts,
                     long switchDrops, long switchPackets, long hostNicDrops, long retransSegs, long timeouts,
                     long synRetrans, long lossProbes, long activeOpens, int maxConnPerHost, int maxConnPerPair,
                     int maxShuffleConnPerHost, int maxShuffleConnPerPair, double busyCores, double softirqCores,
                     double daemonCores, double otherCoresBefore,
                     double loadavg1, boolean validated, String checksum, boolean outputMatches,
                     boolean valid, List<String> invalidReasons) {
    YarnRunRecord {
        invalidReasons = List.copyOf(invalidReasons);
    }

    double lossPct() {
        return switchPackets + switchDrops == 0 ? 0 : 100.0 * switchDrops / (switchPackets + switchDrops);
    }
}
