package io.courier.shuffle.reduce;

import io.courier.shuffle.proxy.source.MapOutputFiles;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.mapred.IndexRecord;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapred.SpillRecord;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.task.reduce.MapHost;
import org.apache.hadoop.mapreduce.task.reduce.MapOutput;
import org.apache.hadoop.mapreduce.task.reduce.MergeManager;
import org.apache.hadoop.mapreduce.task.reduce.ShuffleClientMetrics;
import org.apache.hadoop.mapreduce.task.reduce.ShuffleSchedulerImpl;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The consumer wired to a {@link ReduceHarness}: the local proxy is the harness's node 0, the merge manager is
 * Hadoop's behind a recording gate, and the HTTP fallback is Hadoop's or, when {@link #filesAsHttp} is set, a
 * stand-in that serves the host's map outputs from its files.
 */
class TestConsumer extends CourierShuffleConsumer<BytesWritable, BytesWritable> {
    final ReduceHarness h;
    volatile ProxySegmentFetcher fetcher;
    volatile boolean filesAsHttp;
    volatile int refuseConnects;
    volatile int localLosses;
    final AtomicInteger connectAttempts = new AtomicInteger();
    final List<String> httpHosts = new CopyOnWriteArrayList<>();
    volatile Gate gate;
    /** Fetch through the production relay client (a real task connection to node 0's proxy). */
    volatile boolean viaRelay;

    TestConsumer(ReduceHarness h) {
        this.h = h;
    }

    @Override
    protected Map<String, String> environment() {
        return h.environment();
    }

    @Override
    protected SegmentFetcher connectLocalProxy(String host, int port, ReduceConfig config) throws IOException {
        if (connectAttempts.incrementAndGet() <= refuseConnects) {
            throw new IOException("refused (test) " + host + ":" + port);
        }
        if (viaRelay) {
            return super.connectLocalProxy(host, port, config);
        }
        fetcher = new ProxySegmentFetcher(h.cluster.proxy(0));
        fetcher.localLosses.set(localLosses);
        return fetcher;
    }

    @Override
    protected MergeManager<BytesWritable, BytesWritable> createMergeManager(
            Context<BytesWritable, BytesWritable> context) {
        gate = new Gate(super.createMergeManager(context));
        return gate;
    }

    @Override
    protected HttpFallback createHttpFallback(ShuffleSchedulerImpl<BytesWritable, BytesWritable> scheduler,
            MergeManager<BytesWritable, BytesWritable> merger, ShuffleClientMetrics metrics) {
        if (!filesAsHttp) {
            HttpFallback real = super.createHttpFallback(scheduler, merger, metrics);
            return new HttpFallback() {
                @Override
                public void copyFromHost(MapHost host) throws IOException, InterruptedException {
                    httpHosts.add(host.getHostName());
                    real.copyFromHost(host);
                }

                @Override
                public void close() {
                    real.close();
                }
            };
        }
        return new HttpFallback() {
            @Override
            public void copyFromHost(MapHost host) throws IOException, InterruptedException {
                httpHosts.add(host.getHostName());
                int node = nodeOf(host);
                for (TaskAttemptID map : scheduler.getMapsForHost(host)) {
                    MapOutputFiles files = h.cluster.outputs(node).locator().filesOf(ReduceHarness.JOB,
                            map.toString());
                    byte[] segment = h.cluster.outputs(node).expectedSegment(files, 0);
                    IndexRecord index = new SpillRecord(new Path(files.index().getAbsolutePath()), h.conf)
                            .getIndex(0);
                    MapOutput<BytesWritable, BytesWritable> out;
                    while ((out = merger.reserve(map, index.rawLength, 0)) == null) {
                        merger.waitForResource();
                        Thread.sleep(5);
                    }
                    long t = System.currentTimeMillis();
                    out.shuffle(host, new ByteArrayInputStream(segment), segment.length, index.rawLength, metrics,
                            Reporter.NULL);
                    scheduler.copySucceeded(map, host, segment.length, t, System.currentTimeMillis(), out);
                }
            }

            @Override
            public void close() {
            }
        };
    }

    private int nodeOf(MapHost host) {
        for (int i = 0; i < h.cluster.size(); i++) {
            if (h.mapHost(i).equals(host.getHostName())) {
                return i;
            }
        }
        throw new AssertionError("no node for " + host);
    }

    /** Hadoop's merge manager, recording where outputs went; can hold one map in WAIT until released. */
    static final class Gate implements MergeManager<BytesWritable, BytesWritable> {
        private final MergeManager<BytesWritable, BytesWritable> delegate;
        final Set<String> descriptions = ConcurrentHashMap.newKeySet();
        final AtomicInteger waitsAnswered = new AtomicInteger();
        volatile TaskAttemptID held;
        final CountDownLatch release = new CountDownLatch(1);
        /** When set, every reserve fails as Hadoop's does when no local dir has room. */
        volatile boolean diskFull;
        /** Every output reserve handed out, in order, with what became of it. */
        final List<Recorded> reserved = new CopyOnWriteArrayList<>();

        /** Reservations that were neither committed nor aborted: memory or disk the merge manager never got back. */
        List<String> unreleased() {
            List<String> open = new java.util.ArrayList<>();
            for (Recorded r : reserved) {
                if (r.commits.get() + r.aborts.get() != 1) {
                    open.add(r.getMapId() + " (" + r.getDescription() + "): " + r.commits + " commits, " + r.aborts
                            + " aborts");
                }
            }
            return open;
        }

        /** Reservations whose copy failed and were given back with {@code abort()}. */
        long aborted() {
            return reserved.stream().filter(r -> r.aborts.get() > 0).count();
        }

        Gate(MergeManager<BytesWritable, BytesWritable> delegate) {
            this.delegate = delegate;
        }

        @Override
        public void waitForResource() throws InterruptedException {
            delegate.waitForResource();
        }

        @Override
        public MapOutput<BytesWritable, BytesWritable> reserve(TaskAttemptID mapId, long size, int fetcher)
                throws IOException {
            if (diskFull) {
                throw new org.apache.hadoop.util.DiskChecker.DiskErrorException("no space left for " + mapId
                        + " (test)");
            }
            if (mapId.equals(held) && release.getCount() > 0) {
                waitsAnswered.incrementAndGet();
                return null;
            }
            MapOutput<BytesWritable, BytesWritable> out = delegate.reserve(mapId, size, fetcher);
            if (out == null) {
                return null;
            }
            descriptions.add(out.getDescription());
            Recorded r = new Recorded(out);
            reserved.add(r);
            return r;
        }

        @Override
        public RawKeyValueIterator close() throws Throwable {
            return delegate.close();
        }
    }

    /**
     * A reserved map output that counts its {@code commit()} and {@code abort()} calls: exactly one of them must
     * end every reservation, or the merge manager's memory (or a temporary file) is never given back (Hadoop's
     * TestFetcher.testCopyFromHostWithRetryUnreserve).
     */
    static final class Recorded extends MapOutput<BytesWritable, BytesWritable> {
        private final MapOutput<BytesWritable, BytesWritable> real;
        final AtomicInteger commits = new AtomicInteger();
        final AtomicInteger aborts = new AtomicInteger();

        Recorded(MapOutput<BytesWritable, BytesWritable> real) {
            super(real.getMapId(), real.getSize(), real.isPrimaryMapOutput());
            this.real = real;
        }

        @Override
        public void shuffle(MapHost host, java.io.InputStream input, long compressedLength, long decompressedLength,
                ShuffleClientMetrics metrics, Reporter reporter) throws IOException {
            real.shuffle(host, input, compressedLength, decompressedLength, metrics, reporter);
        }

        @Override
        public void commit() throws IOException {
            commits.incrementAndGet();
            real.commit();
        }

        @Override
        public void abort() {
            aborts.incrementAndGet();
            real.abort();
        }

        @Override
        public String getDescription() {
            return real.getDescription();
        }
    }

    /** Runs the shuffle and closes the consumer, as Hadoop's {@code ReduceTask} does. */
    RawKeyValueIterator runAndClose() throws Exception {
        try {
            return run();
        } finally {
            close();
        }
    }
}
