package io.courier.bench.netemu;

import java.util.List;

/**
 * The coordinator-agent protocol: one JSON request line per connection on the agent's Unix socket, one JSON
 * response line back. Immutable value types (Jackson maps them).
 */
final class AgentMessages {
    private AgentMessages() {
    }

    /** Operations an agent understands. */
    enum Op { PING, PREPARE, RUN, FINISH, QUIT }

    /**
     * One request. PREPARE: write this host's {@code mapsPerHost} map outputs of coflow {@code coflow}, each with
     * {@code partitions} partitions of {@code partitionBytes} bytes, and register the job with the shuffle
     * service. RUN: at {@code startNanos} (System.nanoTime, the same CLOCK_MONOTONIC in every namespace) start
     * one reducer per entry of {@code reducers}, fetching every map of {@code hosts} hosts in {@code mode}.
     * FINISH: forget the job and delete its outputs.
     */
    record Request(Op op, int coflow, int hosts, int mapsPerHost, int partitions, long partitionBytes,
                   Mode mode, int parallelCopies, List<Integer> reducers, long startNanos) {
        static Request simple(Op op) {
            return new Request(op, 0, 0, 0, 0, 0, null, 0, null, 0);
        }
    }

    /** One reducer's outcome: when it finished (System.nanoTime), what it got, or why it failed. */
    record ReducerResult(int partition, long startNanos, long endNanos, long bytes, long maps, String error) {
    }

    /** The answer: PREPARE gives the written partition lengths (per map, concatenated), RUN the reducers. */
    record Response(boolean ok, String error, long[] partLengths, List<ReducerResult> reducers, long pid) {
        static Response success() {
            return new Response(true, null, null, null, ProcessHandle.current().pid());
        }

        static Response failure(String error) {
            return new Response(false, error, null, null, ProcessHandle.current().pid());
        }
    }
}
