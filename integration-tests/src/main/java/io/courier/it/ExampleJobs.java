package io.courier.it;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.apache.hadoop.examples.WordCount;
import org.apache.hadoop.examples.terasort.TeraGen;
import org.apache.hadoop.examples.terasort.TeraSort;
import org.apache.hadoop.examples.terasort.TeraValidate;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * Runs Hadoop's example jobs (TeraGen, TeraSort, TeraValidate, WordCount) on a {@link MiniCourierCluster} and
 * returns what their job history says. Jobs run one at a time, from the caller's thread.
 */
public final class ExampleJobs {
    private final MiniCourierCluster cluster;
    private final JobHistoryReader history;

    public ExampleJobs(MiniCourierCluster cluster) throws IOException {
        this.cluster = cluster;
        this.history = new JobHistoryReader(cluster.fileSystem(), cluster.jobConf(false));
    }

    /** The job history reader this runner uses. */
    public JobHistoryReader history() {
        return history;
    }

    /** TeraGen: {@code rows} 100-byte rows written by {@code maps} maps (one file each) to {@code out}. */
    public JobRun teraGen(long rows, int maps, Path out) throws Exception {
        JobConf conf = cluster.jobConf(false);
        conf.setInt("mapreduce.job.maps", maps);
        // Map-only and small: run it inside its ApplicationMaster (uber mode) rather than start a JVM per map.
        conf.setBoolean("mapreduce.job.ubertask.enable", true);
        conf.setInt("mapreduce.job.ubertask.maxmaps", Math.max(9, maps));
        return runTool("TeraGen", conf, new TeraGen(), String.valueOf(rows), out.toString());
    }

    /** TeraSort of {@code in} into {@code out} with {@code reduces} reducers, on {@code conf}'s shuffle. */
    public JobRun teraSort(JobConf conf, int reduces, Path in, Path out) throws Exception {
        JobConf c = new JobConf(conf);
        c.setNumReduceTasks(reduces);
        return runTool("TeraSort", c, new TeraSort(), in.toString(), out.toString());
    }

    /** TeraValidate of the sorted {@code in}; its report goes to {@code report}. */
    public JobRun teraValidate(Path in, Path report) throws Exception {
        JobConf conf = cluster.jobConf(false);
        // Not a shuffle under test (one reducer, a few bytes): run it inside its ApplicationMaster (uber mode).
        conf.setBoolean("mapreduce.job.ubertask.enable", true);
        conf.setInt("mapreduce.job.ubertask.maxmaps", 64);
        return runTool("TeraValidate", conf, new TeraValidate(), in.toString(), report.toString());
    }

    /** Something that watches a job from its submission to its end (e.g. a fault injector). */
    @FunctionalInterface
    public interface JobWatcher {
        /** Called right after {@code jobId} was submitted; the result is closed when the job has ended. */
        AutoCloseable watch(String jobId) throws Exception;
    }

    /** WordCount (with its combiner) of the files in {@code in} into {@code out}, on {@code conf}'s shuffle. */
    public JobRun wordCount(JobConf conf, int reduces, Path in, Path out) throws Exception {
        return wordCount(conf, reduces, in, out, jobId -> () -> { });
    }

    /** As {@link #wordCount(JobConf, int, Path, Path)}, with {@code watcher} watching the running job. */
    public JobRun wordCount(JobConf conf, int reduces, Path in, Path out, JobWatcher watcher) throws Exception {
        Job job = Job.getInstance(new JobConf(conf), "word count");
        job.setJarByClass(WordCount.class);
        job.setMapperClass(WordCount.TokenizerMapper.class);
        job.setCombinerClass(WordCount.IntSumReducer.class);
        job.setReducerClass(WordCount.IntSumReducer.class);
        job.setOutputKeyClass(Text.class);
        job.setOutputValueClass(IntWritable.class);
        job.setNumReduceTasks(reduces);
        FileInputFormat.addInputPath(job, in);
        FileOutputFormat.setOutputPath(job, out);
        Set<String> before = history.snapshot();
        ProxyStats proxiesBefore = ProxyStats.capture(cluster);
        long t0 = System.nanoTime();
        job.submit();
        boolean ok;
        AutoCloseable watching = watcher.watch(job.getJobID().toString());
        try {
            ok = job.waitForCompletion(false);
        } finally {
            watching.close();
        }
        long wall = (System.nanoTime() - t0) / 1_000_000;
        JobRun run = history.awaitNew(before, "word count", wall)
                .withProxies(ProxyStats.capture(cluster).minus(proxiesBefore));
        if (ok != run.succeeded()) {
            throw new IllegalStateException("word count returned " + ok + " but its history says " + run);
        }
        return run;
    }

    /** Runs one Tool that submits exactly one job and returns that job. */
    public JobRun runTool(String label, JobConf conf, Tool tool, String... args) throws Exception {
        Set<String> before = history.snapshot();
        ProxyStats proxiesBefore = ProxyStats.capture(cluster);
        long t0 = System.nanoTime();
        int rc = ToolRunner.run(conf, tool, args);
        long wall = (System.nanoTime() - t0) / 1_000_000;
        JobRun run = history.awaitNew(before, label, wall)
                .withProxies(ProxyStats.capture(cluster).minus(proxiesBefore));
        if ((rc == 0) != run.succeeded()) {
            throw new IllegalStateException(label + " exited with " + rc + " but its history says " + run);
        }
        return run;
    }

    /**
     * Problems TeraValidate reported in {@code report} (every line but the {@code checksum} line), and the
     * checksum. An empty problem list means the data is sorted and complete.
     */
    public static TeraReport readTeraReport(FileSystem fs, Path report) throws IOException {
        List<String> problems = new ArrayList<>();
        String checksum = null;
        for (FileStatus st : fs.listStatus(report)) {
            if (!st.getPath().getName().startsWith("part-")) {
                continue;
            }
            try (BufferedReader r = new BufferedReader(new InputStreamReader(fs.open(st.getPath()),
                    StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    if (line.startsWith("checksum\t")) {
                        checksum = line.substring("checksum\t".length()).trim();
                    } else if (!line.isBlank()) {
                        problems.add(line);
                    }
                }
            }
        }
        if (checksum == null) {
            problems.add("no checksum line in " + report);
        }
        return new TeraReport(checksum, problems);
    }

    /** What TeraValidate found: the data's checksum and any misorder/error lines. */
    public record TeraReport(String checksum, List<String> problems) {
        public TeraReport {
            problems = List.copyOf(problems);
        }

        /** True if TeraValidate found no problem. */
        public boolean valid() {
            return problems.isEmpty();
        }
    }
}
