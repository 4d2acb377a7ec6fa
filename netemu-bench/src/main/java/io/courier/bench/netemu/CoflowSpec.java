package io.courier.bench.netemu;

/**
 * One synthetic shuffle: every host runs {@code mapsPerHost} maps and {@code reducersPerHost} reducers; each
 * reducer fetches {@code bytesPerReducerHost} bytes from every host (split evenly over that host's maps), with
 * Hadoop's {@code parallelcopies} = {@code parallelCopies} in stock mode. It starts {@code arrivalSec} after the
 * run's start. Immutable.
 */
record CoflowSpec(int reducersPerHost, int mapsPerHost, long bytesPerReducerHost, int parallelCopies,
                  double arrivalSec) {
    CoflowSpec {
        if (reducersPerHost < 1 || mapsPerHost < 1 || bytesPerReducerHost < 1 || parallelCopies < 1
                || arrivalSec < 0) {
            throw new IllegalArgumentException("bad coflow: reducers/host " + reducersPerHost + ", maps/host "
                    + mapsPerHost + ", bytes " + bytesPerReducerHost + ", parallel copies " + parallelCopies
                    + ", arrival " + arrivalSec);
        }
    }

    long segmentBytes() {
        return Math.max(1, bytesPerReducerHost / mapsPerHost);
    }
}
