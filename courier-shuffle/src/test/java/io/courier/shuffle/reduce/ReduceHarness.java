package io.courier.shuffle.reduce;

import io.courier.shuffle.proxy.ProxyConfig;
import io.courier.shuffle.proxy.source.MapOutputFiles;
import io.courier.shuffle.proxy.testing.ProxyCluster;
import io.courier.shuffle.service.ProxyPortRule;
import io.courier.shuffle.service.ServiceMetadata;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalDirAllocator;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.mapred.AMFeedback;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapred.IFile;
import org.apache.hadoop.mapred.InputSplit;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.MROutputFiles;
import org.apache.hadoop.mapred.MapTaskCompletionEventsUpdate;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.mapred.ReduceTask;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapred.ShuffleConsumerPlugin;
import org.apache.hadoop.mapred.TaskAttemptID;
import org.apache.hadoop.mapred.TaskCompletionEvent;
import org.apache.hadoop.mapred.TaskStatus;
import org.apache.hadoop.mapred.TaskUmbilicalProtocol;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.util.Progress;
import org.apache.hadoop.yarn.util.AuxiliaryServiceHelper;

import javax.crypto.spec.SecretKeySpec;
import java.io.File;
import java.io.IOException;
import java.lang.reflect.Proxy;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A reduce task without YARN: proxies on loopback (node 0 is the reducer's own node), map outputs written
 * the way map tasks write them, an umbilical that serves map-completion events from a list, a task status
 * that records fetch-failure reports, and the expected content of partition 0 for checking the merge.
 */
final class ReduceHarness implements AutoCloseable {
    static final String JOB = "job_1700000000000_0001";
    static final byte[] SECRET = "shuffle-secret".getBytes(StandardCharsets.UTF_8);
    static final int OFFSET = 1;

    final File dir;
    final ProxyCluster cluster;
    final JobConf conf = new JobConf(false);
    final Counters counters = new Counters();
    final RecordingStatus status = new RecordingStatus();
    final List<TaskCompletionEvent> events = new CopyOnWriteArrayList<>();
    final TaskAttemptID reduceId = TaskAttemptID.forName("attempt_1700000000000_0001_r_000000_0");
    private final Map<Integer, byte[]> expectedByMap = new HashMap<>();

    ReduceHarness(File dir, int nodes, int numMaps) throws Exception {
        this(dir, nodes, numMaps, proxyConfig());
    }

    /** The proxies' settings of the default harness. */
    static ProxyConfig proxyConfig() {
        return ProxyConfig.defaults().withStreamWindow(64 * 1024);
    }

    ReduceHarness(File dir, int nodes, int numMaps, ProxyConfig proxies) throws Exception {
        this.dir = dir;
        this.cluster = new ProxyCluster(new File(dir, "nodes"), nodes, proxies);
        cluster.secrets().put(JOB, SECRET);
        conf.setNumMapTasks(numMaps);
        conf.setNumReduceTasks(2);
        conf.setMapOutputKeyClass(BytesWritable.class);
        conf.setMapOutputValueClass(BytesWritable.class);
        conf.set(MRConfig.LOCAL_DIR, new File(dir, "local").getAbsolutePath());
        conf.set("fs.defaultFS", "file:///");
        // 4 MB of shuffle memory: segments over 0.7 MB go to disk, smaller ones stay in memory.
        conf.setLong("mapreduce.reduce.memory.totalbytes", 4L << 20);
        conf.setLong("mapreduce.reduce.shuffle.retry-delay.max.ms", 200);
        conf.setInt(ReduceConfig.HOSTS_PARALLEL, 4);
        conf.setInt("mapreduce.reduce.shuffle.connect.timeout", 300);
    }

    static String mapAttempt(int map, int attempt) {
        return String.format("attempt_1700000000000_0001_m_%06d_%d", map, attempt);
    }

    /** Writes map {@code map}'s output (attempt {@code attempt}) on {@code node}; it becomes the expected one. */
    MapOutputFiles writeMap(int node, int map, int attempt, int records, int valueBytes) throws IOException {
        MapOutputFiles f = cluster.outputs(node).write(JOB, mapAttempt(map, attempt), 2, records, valueBytes,
                1000L * map + attempt);
        expectedByMap.put(map, cluster.outputs(node).expectedSegment(f, 0));
        return f;
    }

    byte[] expectedSegment(int map) {
        return expectedByMap.get(map);
    }

    long expectedBytes() {
        long n = 0;
        for (byte[] b : expectedByMap.values()) {
            n += b.length;
        }
        return n;
    }

    int shufflePort(int node) {
        String id = cluster.id(node);
        return Integer.parseInt(id.substring(id.lastIndexOf(':') + 1)) - OFFSET;
    }

    /** The scheduler's name of the node: {@code host:shufflePort}. */
    String mapHost(int node) {
        return "127.0.0.1:" + shufflePort(node);
    }

    void event(int node, int map, int attempt, TaskCompletionEvent.Status s) {
        events.add(new TaskCompletionEvent(events.size(), TaskAttemptID.forName(mapAttempt(map, attempt)), map, true,
                s, "http://" + mapHost(node)));
    }

    void succeeded(int node, int map, int attempt) {
        event(node, map, attempt, TaskCompletionEvent.Status.SUCCEEDED);
    }

    /** The container environment of a reducer on node 0, padded like the NodeManager pads it. */
    Map<String, String> environment() {
        ServiceMetadata m = new ServiceMetadata(shufflePort(0), shufflePort(0) + OFFSET, ProxyPortRule.offset(OFFSET));
        ByteBuffer enc = m.encode();
        byte[] padded = Arrays.copyOf(enc.array(), 32);
        Map<String, String> env = new HashMap<>();
        AuxiliaryServiceHelper.setServiceDataIntoEnv(LocalProxyEndpoint.SHUFFLE_SERVICE, ByteBuffer.wrap(padded), env);
        env.put(LocalProxyEndpoint.NM_HOST, "127.0.0.1");
        return env;
    }

    long counter(Enum<?> e) {
        return counters.findCounter(e).getValue();
    }

    ShuffleConsumerPlugin.Context<BytesWritable, BytesWritable> context() throws IOException {
        MROutputFiles files = new MROutputFiles();
        files.setConf(conf);
        ReduceTask task = new ReduceTask("job.xml", reduceId, 0, conf.getNumMapTasks(), 1);
        task.setShuffleSecret(new SecretKeySpec(SECRET, "HmacSHA1"));
        return new ShuffleConsumerPlugin.Context<>(reduceId, conf, FileSystem.getLocal(conf), umbilical(),
                new LocalDirAllocator(MRConfig.LOCAL_DIR), new CountersReporter(counters), null, null, null,
                counters.findCounter(TaskCounter.SPILLED_RECORDS),
                counters.findCounter(TaskCounter.COMBINE_INPUT_RECORDS),
                counters.findCounter(TaskCounter.SHUFFLED_MAPS), counters.findCounter(TaskCounter.REDUCE_SHUFFLE_BYTES),
                counters.findCounter(TaskCounter.FAILED_SHUFFLE), counters.findCounter(TaskCounter.MERGED_MAP_OUTPUTS),
                status, new Progress(), new Progress(), task, files, null);
    }

    private TaskUmbilicalProtocol umbilical() {
        return (TaskUmbilicalProtocol) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {TaskUmbilicalProtocol.class}, (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "getMapCompletionEvents": {
                            int from = (Integer) args[1];
                            int max = (Integer) args[2];
                            List<TaskCompletionEvent> all = new ArrayList<>(events);
                            int to = Math.min(all.size(), from + max);
                            List<TaskCompletionEvent> part = from >= to ? new ArrayList<TaskCompletionEvent>()
                                    : all.subList(from, to);
                            return new MapTaskCompletionEventsUpdate(part.toArray(new TaskCompletionEvent[0]), false);
                        }
                        case "statusUpdate": {
                            AMFeedback f = new AMFeedback();
                            f.setTaskFound(true);
                            return f;
                        }
                        case "toString":
                            return "test umbilical";
                        case "hashCode":
                            return 0;
                        case "equals":
                            return proxy == args[0];
                        default:
                            throw new UnsupportedOperationException(method.getName());
                    }
                });
    }

    /** Flips the bits of the byte at {@code at} of {@code file}; returns the byte it had (see {@link #restore}). */
    static byte corrupt(File file, long at) throws IOException {
        try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(file, "rw")) {
            f.seek(at);
            byte original = f.readByte();
            f.seek(at);
            f.writeByte(original ^ 0x5a);
            return original;
        }
    }

    /** Puts back the byte {@link #corrupt} returned. */
    static void restore(File file, long at, byte original) throws IOException {
        try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(file, "rw")) {
            f.seek(at);
            f.writeByte(original);
        }
    }

    /** Order-independent digest (count, sum of record hashes) of what a reducer would see. */
    static long[] digest(RawKeyValueIterator kv) throws IOException {
        long n = 0;
        long sum = 0;
        while (kv.next()) {
            n++;
            sum += recordHash(kv.getKey(), kv.getValue());
        }
        kv.close();
        return new long[] {n, sum};
    }

    /** The digest of the expected partition-0 segments, read with Hadoop's IFile reader. */
    long[] expectedDigest() throws IOException {
        long n = 0;
        long sum = 0;
        FileSystem fs = FileSystem.getLocal(conf);
        for (Map.Entry<Integer, byte[]> e : expectedByMap.entrySet()) {
            File f = new File(dir, "expected-" + e.getKey());
            Files.write(f.toPath(), e.getValue());
            try (FSDataInputStream in = fs.open(new Path(f.getAbsolutePath()))) {
                IFile.Reader<BytesWritable, BytesWritable> r = new IFile.Reader<>(conf, in, e.getValue().length, null,
                        null);
                DataInputBuffer k = new DataInputBuffer();
                DataInputBuffer v = new DataInputBuffer();
                while (r.nextRawKey(k)) {
                    r.nextRawValue(v);
                    n++;
                    sum += recordHash(k, v);
                }
                r.close();
            }
        }
        return new long[] {n, sum};
    }

    private static long recordHash(DataInputBuffer k, DataInputBuffer v) {
        int kh = Arrays.hashCode(Arrays.copyOfRange(k.getData(), k.getPosition(), k.getLength()));
        int vh = Arrays.hashCode(Arrays.copyOfRange(v.getData(), v.getPosition(), v.getLength()));
        return 31L * kh + vh;
    }

    @Override
    public void close() {
        cluster.close();
    }

    /** Records the fetch-failure reports the ApplicationMaster would get. */
    static final class RecordingStatus extends TaskStatus {
        final List<TaskAttemptID> fetchFailed = new CopyOnWriteArrayList<>();

        @Override
        public boolean getIsMap() {
            return false;
        }

        @Override
        public void addFetchFailedMap(TaskAttemptID mapTaskId) {
            fetchFailed.add(mapTaskId);
        }
    }

    /** A task reporter over a {@link Counters} (thread-safe as the counters are). */
    static final class CountersReporter implements Reporter {
        private final Counters counters;

        CountersReporter(Counters counters) {
            this.counters = counters;
        }

        @Override
        public void setStatus(String status) {
        }

        @Override
        public Counters.Counter getCounter(Enum<?> name) {
            return counters.findCounter(name);
        }

        @Override
        public Counters.Counter getCounter(String group, String name) {
            return counters.findCounter(group, name);
        }

        @Override
        public void incrCounter(Enum<?> key, long amount) {
            counters.incrCounter(key, amount);
        }

        @Override
        public void incrCounter(String group, String counter, long amount) {
            counters.incrCounter(group, counter, amount);
        }

        @Override
        public InputSplit getInputSplit() {
            throw new UnsupportedOperationException();
        }

        @Override
        public float getProgress() {
            return 0;
        }

        @Override
        public void progress() {
        }
    }
}
