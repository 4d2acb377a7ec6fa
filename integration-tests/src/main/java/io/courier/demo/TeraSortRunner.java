package io.courier.demo;

import java.io.IOException;

import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.TaskType;

import io.courier.it.ExampleJobs;
import io.courier.it.JobRun;
import io.courier.it.MiniCourierCluster;
import io.courier.it.OutputDigest;
import io.courier.it.ShuffleLogs;

/**
 * Runs TeraSort (and optionally TeraValidate) with the stock or the Courier shuffle on one mini cluster and
 * measures it. Reducers start when all maps are done (slowstart 1.0), so that a reducer's shuffle time is the
 * shuffle and not the wait for maps. One thread at a time.
 */
public final class TeraSortRunner {
    private final MiniCourierCluster cluster;
    private final ExampleJobs jobs;
    private final ShuffleLogs logs;
    private final FileSystem fs;

    public TeraSortRunner(MiniCourierCluster cluster) throws IOException {
        this.cluster = cluster;
        this.jobs = new ExampleJobs(cluster);
        this.logs = new ShuffleLogs(cluster);
        this.fs = cluster.fileSystem();
    }

    /** The example-job runner on the same cluster. */
    public ExampleJobs jobs() {
        return jobs;
    }

    /** TeraSorts {@code in} into {@code out} (replaced if present) and, with {@code validate}, TeraValidates it. */
    public SortRun sort(boolean courier, int reduces, Path in, Path out, boolean validate) throws Exception {
        fs.delete(out, true);
        JobConf conf = cluster.measuredJobConf(courier);
        conf.setFloat("mapreduce.job.reduce.slowstart.completedmaps", 1.0f);
        JobRun sort = jobs.teraSort(conf, reduces, in, out);
        if (!sort.succeeded()) {
            throw new IllegalStateException((courier ? "Courier" : "stock") + " TeraSort failed: " + sort);
        }
        OutputDigest digest = OutputDigest.of(fs, out);
        ExampleJobs.TeraReport report = null;
        if (validate) {
            Path reportDir = new Path(out.getParent(), out.getName() + "-validate");
            fs.delete(reportDir, true);
            JobRun v = jobs.teraValidate(out, reportDir);
            if (!v.succeeded()) {
                throw new IllegalStateException("TeraValidate of " + out + " failed: " + v);
            }
            report = ExampleJobs.readTeraReport(fs, reportDir);
        }
        long relay = courier ? sort.successful(TaskType.REDUCE).size() : 0;
        return new SortRun(courier, sort, logs.httpFetchConnections(sort), sort.proxies().connectionsOpened(), relay,
                digest, report);
    }
}
