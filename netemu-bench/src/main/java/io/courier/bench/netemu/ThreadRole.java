package io.courier.bench.netemu;

/**
 * What an agent thread does for the shuffle, told from its name as {@code /proc/<pid>/task/<tid>/comm} shows it
 * (the Java thread name cut to 15 bytes by the kernel). The names were read on live agents (stock and Courier
 * runs); where they come from: Courier's in courier-shuffle ({@code CourierProxy}, {@code ProxyCoordination},
 * {@code FetchWorkers}, {@code MapCompletionPoller}, {@code TaskSocketConnection}) and coordinator
 * ({@code CoordinatorClient}: its actor system is named "courier-proxy"); Hadoop's in ShuffleHandler ("ShuffleHandler
 * Netty Boss #n" / "Worker #n"), ReadaheadPool, Fetcher ("fetcher#n"), EventFetcher, MergeManagerImpl and
 * ShuffleSchedulerImpl; the agent's own in {@link HostAgent}. Immutable.
 */
enum ThreadRole {
    /** Courier proxy event loops ("courier-proxy-io-…") and its acceptor ("courier-proxy-accept-…"). */
    PROXY_IO("proxy-io"),
    /**
     * Deciding who sends what when: Courier's planning thread ("courier-coordination …"), the coordinator client
     * (its watchdog "courier-coordinator-client-watchdog …", its Pekko dispatchers "courier-proxy-pekko…" and
     * scheduler "courier-proxy-scheduler…"), stock Hadoop's penalty referee ("ShufflePenaltyReferee").
     */
    PLANNING("planning"),
    /** Courier's task fetch workers ("courier-fetch#n …") or stock Hadoop's fetchers ("fetcher#n"). */
    FETCH_WORKERS("fetch-workers"),
    /** The reduce task's relay reader ("courier-relay-reader-…"): frames from the local proxy. */
    RELAY_READER("relay-reader"),
    /** Map-completion events: Courier's poller ("courier-map-events …"), stock's EventFetcher. */
    MAP_EVENTS("map-events"),
    /** Hadoop's merge threads (InMemoryMerger, OnDiskMerger), in both modes. */
    MERGE("merge"),
    /** Stock Hadoop's shuffle server: ShuffleHandler's Netty threads and its readahead pool. */
    SHUFFLE_SERVER("shuffle-server"),
    /** The reduce task's own thread ("netemu-reducer"): the plugin's init and run, the final merge. */
    REDUCE_TASK("reduce-task"),
    /**
     * Garbage collection: GC worker threads and the VM thread (the agents run SerialGC, which collects inside the
     * VM thread's safepoint operations).
     */
    GC("gc"),
    /** The JIT: C1/C2 compiler threads and the code cache sweeper. */
    JIT("jit"),
    /** Everything else (the agent's request threads, JVM housekeeping, Hadoop's metrics, ...). */
    OTHER("other");

    private final String label;

    ThreadRole(String label) {
        this.label = label;
    }

    /** The role's name in the report ("proxy-io", ...). */
    String label() {
        return label;
    }

    /** The role's column in runs.csv ("cpu_proxy_io_s", ...). */
    String csvColumn() {
        return "cpu_" + label.replace('-', '_') + "_s";
    }

    /** The role of a thread named {@code comm} (a /proc comm: at most 15 bytes of the thread's name). */
    static ThreadRole of(String comm) {
        String n = comm.strip();
        if (n.startsWith("courier-proxy-i") || n.startsWith("courier-proxy-a")) {
            return PROXY_IO;
        }
        if (n.startsWith("courier-coordin") || n.startsWith("courier-proxy-p") || n.startsWith("courier-proxy-s")
                || n.startsWith("ShufflePenalty")) {
            return PLANNING;
        }
        if (n.startsWith("courier-fetch#") || n.startsWith("fetcher#")) {
            return FETCH_WORKERS;
        }
        if (n.startsWith("courier-relay-r")) {
            return RELAY_READER;
        }
        if (n.startsWith("courier-map-eve") || n.startsWith("EventFetcher")) {
            return MAP_EVENTS;
        }
        if (n.startsWith("InMemoryMerger") || n.startsWith("OnDiskMerger")) {
            return MERGE;
        }
        if (n.startsWith("ShuffleHandler") || n.startsWith("Readahead")) {
            return SHUFFLE_SERVER;
        }
        if (n.startsWith("netemu-reducer")) {
            return REDUCE_TASK;
        }
        if (n.equals("VM Thread") || n.startsWith("GC Thread") || n.startsWith("G1 ")) {
            return GC;
        }
        if (n.startsWith("C1 CompilerThre") || n.startsWith("C2 CompilerThre") || n.startsWith("Sweeper")) {
            return JIT;
        }
        return OTHER;
    }
}
