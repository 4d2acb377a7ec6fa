package io.courier.demo;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.apache.hadoop.examples.terasort.TeraSort;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.Cluster;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.util.ToolRunner;

/**
 * One TeraSort submitted on its own thread, so that several can run at once, with its job id found on the cluster
 * (the example tool does not return it) and its progress readable while it runs. Owns its thread; the caller
 * {@link #await}s it. Created and queried from one thread.
 */
final class BackgroundTeraSort {
    private final ExecutorService thread;
    private final Future<Integer> exit;
    private final long startNanos;
    private final String jobId;
    private final Cluster cluster;

    private BackgroundTeraSort(ExecutorService thread, Future<Integer> exit, long startNanos, String jobId,
            Cluster cluster) {
        this.thread = thread;
        this.exit = exit;
        this.startNanos = startNanos;
        this.jobId = jobId;
        this.cluster = cluster;
    }

    /** Submits TeraSort of {@code in} into {@code out} and waits (up to 60 s) until its job id is known. */
    static BackgroundTeraSort submit(JobConf conf, int reduces, Path in, Path out) throws Exception {
        Cluster cluster = new Cluster(conf);
        Set<String> before = new HashSet<>();
        for (JobStatus s : cluster.getAllJobStatuses()) {
            before.add(s.getJobID().toString());
        }
        JobConf c = new JobConf(conf);
        c.setNumReduceTasks(reduces);
        ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "terasort-" + out.getName());
            t.setDaemon(true);
            return t;
        });
        long t0 = System.nanoTime();
        Future<Integer> exit = thread.submit(() -> ToolRunner.run(c, new TeraSort(),
                new String[] {in.toString(), out.toString()}));
        long deadline = t0 + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            for (JobStatus s : cluster.getAllJobStatuses()) {
                if (!before.contains(s.getJobID().toString())) {
                    return new BackgroundTeraSort(thread, exit, t0, s.getJobID().toString(), cluster);
                }
            }
            if (exit.isDone() || System.nanoTime() > deadline) {
                thread.shutdownNow();
                throw new IllegalStateException("TeraSort of " + in + " did not show up on the cluster"
                        + (exit.isDone() ? " (the tool exited with " + exit.get() + ")" : " within 60 s"));
            }
            Thread.sleep(100); // polling the ResourceManager: there is nothing to wait on
        }
    }

    String jobId() {
        return jobId;
    }

    /** Whether every map is done and the reducers have started (the shuffle is under way). */
    boolean shuffling() throws Exception {
        org.apache.hadoop.mapreduce.Job job = cluster.getJob(org.apache.hadoop.mapreduce.JobID.forName(jobId));
        return job != null && job.mapProgress() >= 1.0f && job.reduceProgress() > 0.0f && !job.isComplete();
    }

    /** Whether at least {@code fraction} of the maps are done and some reducer is running. */
    boolean mapsDoneAndReducing(float fraction) throws Exception {
        org.apache.hadoop.mapreduce.Job job = cluster.getJob(org.apache.hadoop.mapreduce.JobID.forName(jobId));
        return job != null && job.mapProgress() >= fraction && job.reduceProgress() > 0.0f && !job.isComplete();
    }

    /**
     * The job's progress as one number in [0, 2] (map progress plus reduce progress), or -1 when the cluster does
     * not know the job (yet); 2 once it is complete.
     */
    float progress() throws Exception {
        org.apache.hadoop.mapreduce.Job job = cluster.getJob(org.apache.hadoop.mapreduce.JobID.forName(jobId));
        if (job == null) {
            return -1f;
        }
        return job.isComplete() ? 2f : job.mapProgress() + job.reduceProgress();
    }

    /** Whether the tool has exited (the job ended one way or the other). */
    boolean exited() {
        return exit.isDone();
    }

    /** Waits for the tool to exit; returns the wall time from submission in ms. Stops the thread. */
    long await() throws Exception {
        try {
            int rc = exit.get(30, TimeUnit.MINUTES);
            if (rc != 0) {
                throw new IllegalStateException("TeraSort " + jobId + " exited with " + rc);
            }
            return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
        } finally {
            thread.shutdownNow();
            cluster.close();
        }
    }
}
