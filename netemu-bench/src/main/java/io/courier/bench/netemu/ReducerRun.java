package io.courier.bench.netemu;

import io.courier.shuffle.reduce.CourierShuffleConsumer;
import io.courier.shuffle.reduce.LocalProxyEndpoint;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalDirAllocator;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.mapred.AMFeedback;
import org.apache.hadoop.mapred.Counters;
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
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.task.reduce.Shuffle;
import org.apache.hadoop.util.Progress;
import org.apache.hadoop.yarn.util.AuxiliaryServiceHelper;

import javax.crypto.spec.SecretKeySpec;
import java.io.File;
import java.io.IOException;
import java.lang.reflect.Proxy;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One reduce task's shuffle, without YARN, exactly as {@code ReduceTask.run} drives it: a
 * {@link ShuffleConsumerPlugin} (Hadoop's {@link Shuffle} for {@link Mode#STOCK}: {@code parallelcopies}
 * {@code Fetcher} threads over HTTP with the HMAC headers, {@code ShuffleSchedulerImpl} handing out up to 20 maps
 * of one host per connection, {@code MergeManagerImpl}; Courier's {@link CourierShuffleConsumer} for
 * {@link Mode#COURIER}: one relay connection to this host's proxy, which fetches over one merged connection per
 * host pair) gets a task context whose umbilical reports every map of the coflow as completed. The reducer ends
 * when the plugin's {@code run} returns the merged input (kept in memory, not consumed). Single use:
 * {@link #prepare} (optional, before the start), then {@link #call}; the agent orders the two through its pool.
 */
final class ReducerRun {
    private final int coflow;
    private final int partition;
    private final int hosts;
    private final int mapsPerHost;
    private final int partitions;
    private final Mode mode;
    private final int parallelCopies;
    private final String subnet;
    /** Port of the shuffle service the map outputs are fetched from (the map-completion events' URLs). */
    private final int shufflePort;
    private final File localDir;
    private final ByteBuffer serviceMetadata;
    private final String nmHost;
    private final Counters counters = new Counters();
    // Set by prepare(), read by call(): both run on the same thread or are ordered by the pool's Future.get.
    private ShuffleConsumerPlugin<BytesWritable, BytesWritable> plugin;
    private Throwable initFailure;

    ReducerRun(int coflow, int partition, int hosts, int mapsPerHost, int partitions, Mode mode, int parallelCopies,
            String subnet, int shufflePort, File localDir, ByteBuffer serviceMetadata, String nmHost) {
        this.coflow = coflow;
        this.partition = partition;
        this.hosts = hosts;
        this.mapsPerHost = mapsPerHost;
        this.partitions = partitions;
        this.mode = mode;
        this.parallelCopies = parallelCopies;
        this.subnet = subnet;
        this.shufflePort = shufflePort;
        this.localDir = localDir;
        this.serviceMetadata = serviceMetadata;
        this.nmHost = nmHost;
    }

    /** This reducer's local directory (spills, if any); the agent deletes it after the run. */
    File workDir() {
        return new File(localDir, "reduce/" + BenchIds.reduceAttempt(coflow, partition) + "-" + mode);
    }

    /**
     * Creates and initializes the shuffle plugin (Hadoop's {@code Shuffle.init} or Courier's consumer's), before
     * the coflow's start: a real reduce task does this while the maps still run (slow start), so it is not part of
     * the shuffle's time. A failure is kept and reported by {@link #call}.
     */
    void prepare() {
        plugin = mode.courier() ? new BenchCourierConsumer(environment()) : new Shuffle<>();
        try {
            plugin.init(context(counters));
        } catch (Exception | Error e) {
            initFailure = e;
        }
    }

    /** Runs the prepared shuffle; returns the result (an error string instead of a throw: the coordinator reports it). */
    AgentMessages.ReducerResult call() {
        long start = System.nanoTime();
        if (plugin == null) {
            prepare();
        }
        try {
            if (initFailure != null) {
                throw initFailure;
            }
            RawKeyValueIterator kv = plugin.run();
            long end = System.nanoTime();
            kv.close();
            return new AgentMessages.ReducerResult(partition, start, end,
                    counters.findCounter(TaskCounter.REDUCE_SHUFFLE_BYTES).getValue(),
                    counters.findCounter(TaskCounter.SHUFFLED_MAPS).getValue(), null);
        } catch (Throwable e) {
            return new AgentMessages.ReducerResult(partition, start, System.nanoTime(),
                    counters.findCounter(TaskCounter.REDUCE_SHUFFLE_BYTES).getValue(),
                    counters.findCounter(TaskCounter.SHUFFLED_MAPS).getValue(),
                    "coflow " + coflow + " reducer " + partition + " (" + mode + "): " + e);
        } finally {
            plugin.close();
        }
    }

    /** The container environment a reducer on this node sees: the shuffle service's metadata and NM_HOST. */
    private Map<String, String> environment() {
        Map<String, String> env = new HashMap<>();
        AuxiliaryServiceHelper.setServiceDataIntoEnv(LocalProxyEndpoint.SHUFFLE_SERVICE, serviceMetadata.duplicate(),
                env);
        env.put(LocalProxyEndpoint.NM_HOST, nmHost);
        return env;
    }

    private JobConf jobConf() {
        JobConf conf = new JobConf(false);
        conf.setNumMapTasks(hosts * mapsPerHost);
        conf.setNumReduceTasks(partitions);
        conf.setMapOutputKeyClass(BytesWritable.class);
        conf.setMapOutputValueClass(BytesWritable.class);
        // A YARN container's local dirs are its application's, where the node's map tasks left their outputs; a
        // Courier reducer reads its node's maps from there (courier.reduce.node-local.read). The reducer's own dir
        // comes first; nothing is written here (every segment stays in memory, see below).
        conf.setStrings(MRConfig.LOCAL_DIR, workDir().getAbsolutePath(), SyntheticMapOutputs.appDir(localDir,
                BenchIds.USER, BenchIds.app(coflow)).getAbsolutePath());
        conf.set("fs.defaultFS", "file:///");
        conf.setInt(MRJobConfig.SHUFFLE_PARALLEL_COPIES, parallelCopies);
        // Shuffle memory as a 400 MB reduce heap would have; segments stay in memory and the final merge keeps
        // them there (input buffer 100%), so the time measured is the shuffle, not local disk spills.
        conf.setLong(MRJobConfig.REDUCE_MEMORY_TOTAL_BYTES, 400L << 20);
        conf.setFloat(MRJobConfig.REDUCE_INPUT_BUFFER_PERCENT, 1.0f);
        return CourierOverrides.from(System.getProperties()).applyTo(conf);
    }

    private ShuffleConsumerPlugin.Context<BytesWritable, BytesWritable> context(Counters counters)
            throws IOException {
        JobConf conf = jobConf();
        TaskAttemptID reduceId = TaskAttemptID.forName(BenchIds.reduceAttempt(coflow, partition));
        MROutputFiles files = new MROutputFiles();
        files.setConf(conf);
        ReduceTask task = new ReduceTask("job.xml", reduceId, partition, conf.getNumMapTasks(), 1);
        task.setShuffleSecret(new SecretKeySpec(BenchIds.secret(coflow), "HmacSHA1"));
        return new ShuffleConsumerPlugin.Context<>(reduceId, conf, FileSystem.getLocal(conf), umbilical(),
                new LocalDirAllocator(MRConfig.LOCAL_DIR), new CountersReporter(counters), null, null, null,
                counters.findCounter(TaskCounter.SPILLED_RECORDS),
                counters.findCounter(TaskCounter.COMBINE_INPUT_RECORDS),
                counters.findCounter(TaskCounter.SHUFFLED_MAPS), counters.findCounter(TaskCounter.REDUCE_SHUFFLE_BYTES),
                counters.findCounter(TaskCounter.FAILED_SHUFFLE), counters.findCounter(TaskCounter.MERGED_MAP_OUTPUTS),
                new ReduceStatus(), new Progress(), new Progress(), task, files, null);
    }

    /** Every map of the coflow, completed on its host (the shuffle handler's address in the URL). */
    private List<TaskCompletionEvent> events() {
        List<TaskCompletionEvent> events = new ArrayList<>();
        for (int h = 1; h <= hosts; h++) {
            for (int m = 0; m < mapsPerHost; m++) {
                int index = (h - 1) * mapsPerHost + m;
                events.add(new TaskCompletionEvent(events.size(),
                        TaskAttemptID.forName(BenchIds.mapAttempt(coflow, index)), index, true,
                        TaskCompletionEvent.Status.SUCCEEDED,
                        "http://" + subnet + "." + h + ":" + shufflePort));
            }
        }
        return events;
    }

    /** The ApplicationMaster side of the task: map-completion events from the list, status updates accepted. */
    private TaskUmbilicalProtocol umbilical() {
        List<TaskCompletionEvent> all = events();
        return (TaskUmbilicalProtocol) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {TaskUmbilicalProtocol.class}, (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "getMapCompletionEvents": {
                            int from = (Integer) args[1];
                            int max = (Integer) args[2];
                            int to = Math.min(all.size(), from + max);
                            TaskCompletionEvent[] part = from >= to ? new TaskCompletionEvent[0]
                                    : all.subList(from, to).toArray(new TaskCompletionEvent[0]);
                            return new MapTaskCompletionEventsUpdate(part, false);
                        }
                        case "statusUpdate": {
                            AMFeedback f = new AMFeedback();
                            f.setTaskFound(true);
                            return f;
                        }
                        case "toString":
                            return "netemu umbilical of coflow " + coflow + " reducer " + partition;
                        case "hashCode":
                            return System.identityHashCode(proxy);
                        case "equals":
                            return proxy == args[0];
                        default:
                            // Progress pings and the like: nothing to record.
                            return null;
                    }
                });
    }

    /** Courier's consumer with the container environment given, not read from this JVM's. */
    private static final class BenchCourierConsumer extends CourierShuffleConsumer<BytesWritable, BytesWritable> {
        private final Map<String, String> env;

        BenchCourierConsumer(Map<String, String> env) {
            this.env = env;
        }

        @Override
        protected Map<String, String> environment() {
            return env;
        }
    }

    /** A reduce task's status; fetch-failure reports are ignored (the run's result shows failures). */
    static final class ReduceStatus extends TaskStatus {
        @Override
        public boolean getIsMap() {
            return false;
        }

        @Override
        public void addFetchFailedMap(TaskAttemptID mapTaskId) {
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
            throw new UnsupportedOperationException("no input split in a shuffle benchmark");
        }

        @Override
        public float getProgress() {
            return 0;
        }

        @Override
        public void progress() {
        }
    }

    @Override
    public String toString() {
        return "reducer " + partition + " of coflow " + coflow + " (" + mode + ", " + Arrays.asList(hosts,
                mapsPerHost, parallelCopies) + ")";
    }
}
