package io.courier.demo;

import io.courier.it.ExampleJobs.TeraReport;
import io.courier.it.JobRun;
import io.courier.it.OutputDigest;

/**
 * One TeraSort on the mini cluster with one shuffle, and what it cost. Immutable.
 *
 * @param courier          true for the Courier shuffle, false for Hadoop's stock HTTP shuffle
 * @param sort             the TeraSort job
 * @param httpConnections  HTTP connections the reducers opened to shuffle services (from their shuffle logs)
 * @param peerConnections  connections the Courier proxies opened to each other during the job
 * @param relayConnections reduce tasks' connections to their node's Courier proxy (one per Courier reduce attempt)
 * @param output           digest of the sorted output
 * @param report           TeraValidate's verdict, or null when not validated
 */
public record SortRun(boolean courier, JobRun sort, long httpConnections, long peerConnections,
                      long relayConnections, OutputDigest output, TeraReport report) {

    /** "courier" or "stock". */
    public String label() {
        return courier ? "courier" : "stock";
    }

    /** All TCP connections opened for the shuffle. */
    public long shuffleConnections() {
        return httpConnections + peerConnections + relayConnections;
    }
}
