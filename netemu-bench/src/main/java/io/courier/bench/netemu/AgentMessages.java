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
    enum Op { PING, PREPARE, LINK, COORDINATE, RUN, FINISH, QUIT }

    /**
     * One request. PREPARE: write this host's {@code mapsPerHost} map outputs of coflow {@code coflow}, each with
     * {@code partitions} partitions of {@code partitionBytes} bytes, and register the job with the shuffle
     * service(s). LINK: make coflow {@code coflow} a new job whose map outputs are those of the prepared coflow
     * {@code sourceCoflow} (hard links: the same bytes under the new job's names), registered like PREPARE; every
     * run is its own job, so that its coflow is new to a coordinator and completes with FINISH. COORDINATE: start
     * the host's coordinated proxy towards the coordinator at {@code coordinator} ({@code host:port}) with port
     * capacity {@code capacityBytesPerSec}, and answer once it follows the coordinator (at most
     * {@code waitMillis}). RUN: at {@code startNanos} (System.nanoTime, the same CLOCK_MONOTONIC in every
     * namespace) start one reducer per entry of {@code reducers}, fetching every map of {@code hosts} hosts in
     * {@code mode}. FINISH: forget the job (its coflow completes at the coordinator) and delete its outputs.
     */
    record Request(Op op, int coflow, int hosts, int mapsPerHost, int partitions, long partitionBytes,
                   Mode mode, int parallelCopies, List<Integer> reducers, long startNanos, int sourceCoflow,
                   String coordinator, long capacityBytesPerSec, long waitMillis) {
        static Request simple(Op op) {
            return new Request(op, 0, 0, 0, 0, 0, null, 0, null, 0, 0, null, 0, 0);
        }

        static Request prepare(int coflow, int hosts, int mapsPerHost, int partitions, long partitionBytes) {
            return new Request(Op.PREPARE, coflow, hosts, mapsPerHost, partitions, partitionBytes, null, 0, null, 0,
                    0, null, 0, 0);
        }

        static Request link(int sourceCoflow, int coflow, int mapsPerHost) {
            return new Request(Op.LINK, coflow, 0, mapsPerHost, 0, 0, null, 0, null, 0, sourceCoflow, null, 0, 0);
        }

        static Request coordinate(String coordinator, long capacityBytesPerSec, long waitMillis) {
            return new Request(Op.COORDINATE, 0, 0, 0, 0, 0, null, 0, null, 0, 0, coordinator, capacityBytesPerSec,
                    waitMillis);
        }

        static Request run(int coflow, int hosts, int mapsPerHost, int partitions, long partitionBytes, Mode mode,
                int parallelCopies, List<Integer> reducers, long startNanos) {
            return new Request(Op.RUN, coflow, hosts, mapsPerHost, partitions, partitionBytes, mode, parallelCopies,
                    reducers, startNanos, 0, null, 0, 0);
        }

        static Request finish(int coflow) {
            return new Request(Op.FINISH, coflow, 0, 0, 0, 0, null, 0, null, 0, 0, null, 0, 0);
        }
    }

    /** One reducer's outcome: when it finished (System.nanoTime), what it got, or why it failed. */
    record ReducerResult(int partition, long startNanos, long endNanos, long bytes, long maps, String error) {
    }

    /**
     * The answer: PREPARE gives the written partition lengths (per map, concatenated), RUN the reducers; a
     * coordinated RUN sets {@code uncoordinated} when the host's proxy was seen not following the coordinator
     * (fallen back to decentralized scheduling) while its reducers ran (sampled every 20 ms).
     */
    record Response(boolean ok, String error, long[] partLengths, List<ReducerResult> reducers, long pid,
                    boolean uncoordinated) {
        static Response success() {
            return new Response(true, null, null, null, ProcessHandle.current().pid(), false);
        }

        static Response failure(String error) {
            return new Response(false, error, null, null, ProcessHandle.current().pid(), false);
        }
    }
}
