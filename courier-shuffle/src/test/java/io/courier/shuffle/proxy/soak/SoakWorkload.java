package io.courier.shuffle.proxy.soak;

import io.courier.shuffle.proxy.NodeAddress;
import io.courier.shuffle.proxy.client.FetchException;
import io.courier.shuffle.proxy.protocol.ErrorCode;
import io.courier.shuffle.proxy.relay.LocalProxyClient;
import io.courier.shuffle.proxy.relay.RelayClientConfig;
import io.courier.shuffle.proxy.relay.RelayStream;
import io.courier.shuffle.proxy.source.MapOutputFiles;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The soak's traffic on a {@link RestartableProxies}: jobs come and go (map outputs written with Hadoop's
 * IFile/SpillRecord, secrets registered, then after their reducers finished the job is finished on every proxy,
 * its secret removed and its files deleted), each job's reducers fetch every map of their job through their
 * node's proxy over a relay connection as reduce tasks do, and some reducers stall mid-segment, cancel a
 * segment and fetch it again, or drop their whole connection and start over. A restart thread restarts one
 * proxy after another, so peers lose connections and reconnect. Every delivered segment is compared byte for
 * byte with the map output file.
 *
 * <p>Threads: {@link #run} is called by one driver thread, which creates and retires jobs; reduce tasks run on
 * this object's fetcher pool ({@code soak-reducer}) and restarts on its own thread ({@code soak-restarter}); both
 * are stopped before {@link #run} returns.
 */
final class SoakWorkload {
    /** How a reduce task behaves. */
    enum Behaviour { NORMAL, STALL, CANCEL, ABANDON }

    static final int MAPS_PER_NODE = 2;
    static final int REDUCERS = 8;
    static final int ACTIVE_JOBS = 4;
    static final int FETCHERS = 8;

    final AtomicLong jobsCreated = new AtomicLong();
    final AtomicLong jobsRemoved = new AtomicLong();
    final AtomicLong tasks = new AtomicLong();
    final AtomicLong segments = new AtomicLong();
    final AtomicLong bytes = new AtomicLong();
    final AtomicLong retries = new AtomicLong();
    final AtomicLong stalls = new AtomicLong();
    final AtomicLong cancels = new AtomicLong();
    final AtomicLong abandons = new AtomicLong();
    final AtomicLong finishedJobFetchesRejected = new AtomicLong();
    final AtomicLong maxHeapAfterGc = new AtomicLong();
    final AtomicLong restartFailures = new AtomicLong();
    volatile String restartFailure;
    private final List<String> errors = new ArrayList<>();

    private final RestartableProxies proxies;
    private final File root;
    private final long restartEveryMillis;
    private final RelayClientConfig relayConfig = RelayClientConfig.defaults().withStreamWindow(32 * 1024)
            .withHeaderTimeoutMillis(30_000).withReadTimeoutMillis(30_000).withConnectTimeoutMillis(5_000);
    private final Random random;
    private int nextJob;

    SoakWorkload(RestartableProxies proxies, File root, long restartEveryMillis, long seed) {
        this.proxies = proxies;
        this.root = root;
        this.restartEveryMillis = restartEveryMillis;
        this.random = new Random(seed);
    }

    synchronized List<String> errors() {
        return new ArrayList<>(errors);
    }

    private synchronized void error(String e) {
        if (errors.size() < 50) {
            errors.add(e);
        }
    }

    /** One job's map outputs, secret and reduce tasks. Driver thread only. */
    private final class Job {
        final String id;
        final byte[] secret;
        final MapOutputFiles[][] files = new MapOutputFiles[proxies.size()][MAPS_PER_NODE];
        final List<Future<?>> reducers = new ArrayList<>();

        Job(int n) throws IOException {
            id = String.format("job_1700000000000_%04d", n);
            secret = ("soak-secret-" + n).getBytes(StandardCharsets.UTF_8);
            proxies.secrets().put(id, secret);
            for (int node = 0; node < proxies.size(); node++) {
                for (int m = 0; m < MAPS_PER_NODE; m++) {
                    // 10-20 records of 200-2,200 B per partition: segments of ~2-45 KB, some above the 32 KB window.
                    files[node][m] = proxies.outputs(node).write(id, map(node, m), REDUCERS, 10,
                            200 + random.nextInt(2000), random.nextLong());
                }
            }
        }

        String map(int node, int m) {
            return "attempt_1700000000000_" + id.substring(id.lastIndexOf('_') + 1) + "_m_"
                    + String.format("%06d", node * MAPS_PER_NODE + m) + "_0";
        }

        boolean done() {
            for (Future<?> f : reducers) {
                if (!f.isDone()) {
                    return false;
                }
            }
            return true;
        }
    }

    /** Runs traffic for {@code millis}, then lets the last jobs finish (at most 120 s) and stops its threads. */
    void run(long millis) throws Exception {
        ExecutorService fetchers = Executors.newFixedThreadPool(FETCHERS, named("soak-reducer"));
        ScheduledExecutorService restarter = Executors.newSingleThreadScheduledExecutor(named("soak-restarter"));
        try {
            if (restartEveryMillis > 0) {
                final int[] next = {0};
                restarter.scheduleWithFixedDelay(() -> {
                    int i = next[0]++ % proxies.size();
                    try {
                        proxies.restart(i);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    } catch (RuntimeException e) {
                        // Counted, and tried again at the next turn: the task that throws would stop the schedule.
                        restartFailures.incrementAndGet();
                        restartFailure = e.toString();
                    }
                }, restartEveryMillis, restartEveryMillis, TimeUnit.MILLISECONDS);
            }
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
            long nextHeapSample = 0;
            List<Job> active = new ArrayList<>();
            while (System.nanoTime() < deadline || !active.isEmpty()) {
                if (System.nanoTime() > deadline + TimeUnit.SECONDS.toNanos(120)) {
                    error(active.size() + " jobs did not finish within 120 s after the soak's end");
                    break;
                }
                for (Iterator<Job> it = active.iterator(); it.hasNext(); ) {
                    Job j = it.next();
                    if (j.done()) {
                        it.remove();
                        retire(j);
                    }
                }
                while (System.nanoTime() < deadline && active.size() < ACTIVE_JOBS) {
                    Job j = new Job(++nextJob);
                    jobsCreated.incrementAndGet();
                    for (int r = 0; r < REDUCERS; r++) {
                        final int partition = r;
                        final Behaviour b = behaviour();
                        final long seed = random.nextLong();
                        j.reducers.add(fetchers.submit(() -> reduceTask(j, partition, b, seed)));
                    }
                    active.add(j);
                }
                if (System.nanoTime() > nextHeapSample) {
                    System.gc(); // a measurement: the heap a long run keeps, not garbage between collections
                    long used = java.lang.management.ManagementFactory.getMemoryMXBean().getHeapMemoryUsage()
                            .getUsed();
                    maxHeapAfterGc.accumulateAndGet(used, Math::max);
                    nextHeapSample = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
                }
                Thread.sleep(20); // polling the jobs' futures from the one driver thread
            }
        } finally {
            // shutdown, not shutdownNow: a restart in progress completes (all proxies are up for the final
            // checks) and is not mistaken for a failed one; the periodic schedule itself is cancelled.
            restarter.shutdown();
            fetchers.shutdownNow();
            if (!restarter.awaitTermination(30, TimeUnit.SECONDS) || !fetchers.awaitTermination(30, TimeUnit.SECONDS)) {
                error("soak threads did not stop within 30 s");
            }
        }
    }

    private Behaviour behaviour() {
        int x = random.nextInt(100);
        return x < 65 ? Behaviour.NORMAL : x < 80 ? Behaviour.STALL : x < 93 ? Behaviour.CANCEL : Behaviour.ABANDON;
    }

    /** Finishes the job everywhere, as the NodeManagers do when its application ends, and deletes its files. */
    private void retire(Job j) {
        for (Future<?> f : j.reducers) {
            try {
                f.get();
            } catch (Exception e) {
                error(j.id + ": reducer failed: " + e);
            }
        }
        for (int n = 0; n < proxies.size(); n++) {
            proxies.proxy(n).jobFinished(j.id);
        }
        proxies.secrets().remove(j.id);
        for (int n = 0; n < proxies.size(); n++) {
            deleteTree(new File(new File(root, "node" + n), j.id));
        }
        jobsRemoved.incrementAndGet();
        if (jobsRemoved.get() % 5 == 1) {
            fetchFinishedJob(j);
        }
    }

    /** A late fetch for a finished job must fail with a non-retryable error, never hang or deliver bytes. */
    private void fetchFinishedJob(Job j) {
        int local = random.nextInt(proxies.size());
        NodeAddress a = NodeAddress.parse(proxies.id(local));
        try (LocalProxyClient c = LocalProxyClient.connect(a.host(), a.port(), relayConfig, "late-" + j.id)) {
            RelayStream s = c.fetch(proxies.id((local + 1) % proxies.size()), j.id, j.map(0, 0), 0, j.secret);
            s.awaitHeader(30, TimeUnit.SECONDS);
            error("a fetch for the finished job " + j.id + " was answered with a segment");
        } catch (FetchException e) {
            if (!e.retryable()) {
                finishedJobFetchesRejected.incrementAndGet();
            } else if (!e.isConnectionFailure() && !lostToARestart(e.code())) {
                error("a fetch for the finished job " + j.id + " failed retryably: " + e);
            }
        } catch (IOException e) {
            // A restart happened to hit this fetch: nothing to conclude.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A failure a proxy restart causes (the local or the source proxy went away), which says nothing else. */
    private static boolean lostToARestart(ErrorCode code) {
        return code == ErrorCode.PEER_UNREACHABLE || code == ErrorCode.PEER_LOST || code == ErrorCode.SHUTTING_DOWN;
    }

    /**
     * One reduce task of {@code j} for {@code partition}, on node {@code partition % nodes}: fetches every map of
     * the job over one relay connection; on a retryable failure (a restarted proxy) starts over with a new
     * connection, as Hadoop re-fetches. Runs on a fetcher thread.
     */
    private void reduceTask(Job j, int partition, Behaviour behaviour, long seed) {
        Random rnd = new Random(seed);
        int local = partition % proxies.size();
        NodeAddress a = NodeAddress.parse(proxies.id(local));
        String task = "attempt_soak_r_" + j.id + "_" + partition;
        IOException last = null;
        for (int attempt = 0; attempt < 100 && !Thread.currentThread().isInterrupted(); attempt++) {
            try (LocalProxyClient c = LocalProxyClient.connect(a.host(), a.port(), relayConfig, task)) {
                fetchAll(c, j, partition, attempt == 0 ? behaviour : Behaviour.NORMAL, rnd);
                tasks.incrementAndGet();
                return;
            } catch (FetchException e) {
                if (!e.retryable() && !e.isConnectionFailure()) {
                    error(task + ": non-retryable failure: " + e);
                    return;
                }
                last = e;
            } catch (IOException e) {
                last = e;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (TimeoutException e) {
                error(task + ": " + e.getMessage());
                return;
            }
            retries.incrementAndGet();
            try {
                Thread.sleep(50 + rnd.nextInt(200)); // back-off before a re-fetch, as Hadoop's fetcher does
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        error(task + ": gave up after 100 attempts; last failure: " + last);
    }

    private void fetchAll(LocalProxyClient c, Job j, int partition, Behaviour behaviour, Random rnd)
            throws IOException, InterruptedException, TimeoutException {
        int nodes = proxies.size();
        int special = rnd.nextInt(nodes * MAPS_PER_NODE);
        // Like Hadoop's parallel copies: every fetch is issued at once, then read one after the other.
        List<RelayStream> streams = new ArrayList<>();
        try {
            for (int n = 0; n < nodes; n++) {
                for (int m = 0; m < MAPS_PER_NODE; m++) {
                    streams.add(c.fetch(proxies.id(n), j.id, j.map(n, m), partition, j.secret));
                }
            }
            for (int k = 0; k < streams.size(); k++) {
                int n = k / MAPS_PER_NODE;
                int m = k % MAPS_PER_NODE;
                byte[] expected = proxies.outputs(n).expectedSegment(j.files[n][m], partition);
                RelayStream s = streams.get(k);
                if (k == special && behaviour == Behaviour.ABANDON) {
                    readSome(s, expected.length / 2);
                    abandons.incrementAndGet();
                    c.close(); // the task dies: every open stream of this connection is dropped
                    throw new IOException("abandoned on purpose");
                }
                if (k == special && behaviour == Behaviour.CANCEL) {
                    readSome(s, expected.length / 3);
                    s.close();
                    cancels.incrementAndGet();
                    s = c.fetch(proxies.id(n), j.id, j.map(n, m), partition, j.secret);
                    streams.set(k, s);
                }
                byte[] got = read(s, expected.length, k == special && behaviour == Behaviour.STALL, rnd);
                if (!Arrays.equals(expected, got)) {
                    error(j.id + " map " + j.map(n, m) + " partition " + partition + ": " + got.length
                            + " bytes differ from the " + expected.length + " bytes on disk");
                }
                proxies.outputs(n).verifyChecksum(got);
                segments.incrementAndGet();
                bytes.addAndGet(got.length);
            }
        } finally {
            for (RelayStream s : streams) {
                s.close();
            }
        }
    }

    private static void readSome(RelayStream s, int bytes) throws IOException, InterruptedException {
        s.awaitHeader(30, TimeUnit.SECONDS);
        InputStream in = s.data();
        byte[] buf = new byte[Math.max(1, bytes)];
        int off = 0;
        while (off < bytes) {
            int n = in.read(buf, off, bytes - off);
            if (n < 0) {
                break;
            }
            off += n;
        }
    }

    private byte[] read(RelayStream s, int expectedLength, boolean stall, Random rnd)
            throws IOException, InterruptedException, TimeoutException {
        if (s.awaitHeader(30, TimeUnit.SECONDS).compressedLength() != expectedLength) {
            throw new IOException("header announces " + s.awaitHeader(1, TimeUnit.SECONDS).compressedLength()
                    + " bytes, the file holds " + expectedLength);
        }
        byte[] out = new byte[expectedLength];
        int off = 0;
        try (InputStream in = s.data()) {
            while (off < expectedLength) {
                if (stall && off >= expectedLength / 2) {
                    stalls.incrementAndGet();
                    stall = false;
                    Thread.sleep(300 + rnd.nextInt(1200)); // a merge that blocks the reader: the stall under test
                }
                int n = in.read(out, off, stall ? Math.min(expectedLength / 2 - off + 1, expectedLength - off)
                        : expectedLength - off);
                if (n < 0) {
                    throw new IOException("segment ended after " + off + " of " + expectedLength + " bytes");
                }
                off += n;
            }
            if (in.read() >= 0) {
                throw new IOException("segment longer than its " + expectedLength + " bytes");
            }
        }
        return out;
    }

    private static java.util.concurrent.ThreadFactory named(String name) {
        final AtomicLong n = new AtomicLong();
        return r -> {
            Thread t = new Thread(r, name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    private static void deleteTree(File f) {
        File[] children = f.listFiles();
        if (children != null) {
            for (File c : children) {
                deleteTree(c);
            }
        }
        if (f.exists() && !f.delete()) {
            throw new IllegalStateException("cannot delete " + f);
        }
    }
}
