package io.courier.it;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.jobhistory.JobHistoryParser;
import org.apache.hadoop.mapreduce.jobhistory.JobHistoryParser.JobInfo;
import org.apache.hadoop.mapreduce.jobhistory.JobHistoryParser.TaskAttemptInfo;

/**
 * Reads finished jobs from the job history files their ApplicationMasters leave in the intermediate done dir. The
 * mini cluster runs no JobHistoryServer, so after a job ends the client cannot ask anyone for its counters; the
 * history file has them, and the per-attempt shuffle end times and nodes as well.
 *
 * <p>Jobs run one at a time: a caller takes a {@link #snapshot()} before submitting and then
 * {@link #awaitNew(Set, String, long)} returns the one job that appeared since. Single-threaded use.
 */
public final class JobHistoryReader {
    private final FileSystem fs;
    private final Path doneIntermediate;

    public JobHistoryReader(FileSystem fs, JobConf conf) {
        this.fs = fs;
        this.doneIntermediate = new Path(conf.get("mapreduce.jobhistory.intermediate-done-dir",
                conf.get("yarn.app.mapreduce.am.staging-dir") + "/history/done_intermediate"));
    }

    /** Names of the history files present now. */
    public Set<String> snapshot() throws IOException {
        Set<String> names = new HashSet<>();
        for (Path p : historyFiles()) {
            names.add(p.getName());
        }
        return names;
    }

    /**
     * Waits (at most {@code timeoutMillis}) for the history file of the job that finished since {@code before}
     * was taken: the AM moves it into place while it shuts down, shortly after the client saw the job end.
     */
    public JobRun awaitNew(Set<String> before, String label, long wallMillis, long timeoutMillis)
            throws IOException {
        return parse(await(label, timeoutMillis, () -> {
            List<Path> fresh = new ArrayList<>();
            for (Path p : historyFiles()) {
                if (!before.contains(p.getName())) {
                    fresh.add(p);
                }
            }
            if (fresh.size() > 1) {
                throw new IllegalStateException("expected one new job history file for " + label + ", found "
                        + fresh);
            }
            return fresh.isEmpty() ? null : fresh.get(0);
        }), wallMillis);
    }

    /**
     * Waits (at most {@code timeoutMillis}) for the history file of job {@code jobId}: for jobs that ran at the same
     * time, where "the one new file" is ambiguous.
     */
    public JobRun awaitJob(String jobId, long wallMillis, long timeoutMillis) throws IOException {
        return parse(await(jobId, timeoutMillis, () -> {
            for (Path p : historyFiles()) {
                // History file names start with the job id and a dash: job_..._0001-<submit time>-...jhist
                if (p.getName().startsWith(jobId + "-")) {
                    return p;
                }
            }
            return null;
        }), wallMillis);
    }

    /** Looks for a history file; null while there is none yet. */
    private interface Lookup {
        Path find() throws IOException;
    }

    private Path await(String what, long timeoutMillis, Lookup lookup) throws IOException {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        while (true) {
            Path found = lookup.find();
            if (found != null) {
                return found;
            }
            if (System.currentTimeMillis() > deadline) {
                throw new IOException("no job history file for " + what + " appeared in " + doneIntermediate
                        + " within " + timeoutMillis + " ms");
            }
            try {
                Thread.sleep(200); // polling a directory: there is nothing to wait on
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while waiting for the history of " + what);
            }
        }
    }

    /** Convenience: the history file of the job that finished since {@code before} (60 s timeout). */
    public JobRun awaitNew(Set<String> before, String label, long wallMillis) throws IOException {
        return awaitNew(before, label, wallMillis, 60_000);
    }

    private List<Path> historyFiles() throws IOException {
        List<Path> files = new ArrayList<>();
        if (!fs.exists(doneIntermediate)) {
            return files;
        }
        RemoteIterator<LocatedFileStatus> it = fs.listFiles(doneIntermediate, true);
        while (it.hasNext()) {
            Path p = it.next().getPath();
            // The AM writes "<name>.jhist_tmp" first and renames it when complete.
            if (p.getName().endsWith(".jhist")) {
                files.add(p);
            }
        }
        return files;
    }

    private JobRun parse(Path file, long wallMillis) throws IOException {
        JobInfo info = new JobHistoryParser(fs, file).parse();
        List<AttemptSummary> attempts = new ArrayList<>();
        for (TaskAttemptInfo a : info.getAllCompletedTaskAttempts().values()) {
            if (a.getTaskType() != TaskType.MAP && a.getTaskType() != TaskType.REDUCE) {
                continue;
            }
            attempts.add(new AttemptSummary(a.getAttemptId().toString(), a.getTaskType(),
                    a.getTaskStatus() == null ? "" : a.getTaskStatus(), a.getShufflePort(),
                    a.getContainerId() == null ? "" : a.getContainerId().toString(), a.getStartTime(),
                    a.getShuffleFinishTime(), a.getFinishTime(), a.getError() == null ? "" : a.getError()));
        }
        attempts.sort((x, y) -> x.attemptId().compareTo(y.attemptId()));
        return new JobRun(info.getJobId().toString(), info.getJobname(), info.getJobStatus(), wallMillis,
                info.getTotalCounters() == null ? new org.apache.hadoop.mapreduce.Counters() : info.getTotalCounters(), attempts, info.getErrorInfo() == null ? "" : info.getErrorInfo(),
                ProxyStats.EMPTY);
    }
}
