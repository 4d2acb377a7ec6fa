package io.courier.it;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;

import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.yarn.api.records.ContainerId;

/**
 * Reads the reduce containers' shuffle logs ({@code syslog.shuffle}) that the NodeManagers keep under their log
 * dirs. Hadoop counts no connections on the reduce side, but its fetchers log one
 * {@code "<host> freed by fetcher#N"} line per {@code copyFromHost} round, and every round opens one HTTP
 * connection (keep-alive is off by default): the number of those lines is the number of HTTP connections the
 * job's reducers opened to the shuffle services.
 */
public final class ShuffleLogs {
    private static final String FREED_BY_FETCHER = " freed by fetcher#";

    private final MiniCourierCluster cluster;

    public ShuffleLogs(MiniCourierCluster cluster) {
        this.cluster = cluster;
    }

    /** HTTP shuffle connections the reduce attempts of {@code run} opened (see the class comment). */
    public long httpFetchConnections(JobRun run) throws IOException {
        long n = 0;
        for (File log : shuffleLogs(run)) {
            for (String line : Files.readAllLines(log.toPath(), StandardCharsets.UTF_8)) {
                if (line.contains(FREED_BY_FETCHER)) {
                    n++;
                }
            }
        }
        return n;
    }

    /**
     * Number of lines containing {@code text} in the logs ({@code syslog} and {@code syslog.shuffle}) of
     * {@code run}'s reduce attempts. Hadoop sends only its own shuffle classes to {@code syslog.shuffle}; a
     * plugin outside {@code org.apache.hadoop.mapreduce.task.reduce} logs to {@code syslog}.
     */
    public long countLines(JobRun run, String text) throws IOException {
        long n = 0;
        List<File> logs = new ArrayList<>(shuffleLogs(run));
        logs.addAll(reduceLogs(run, "syslog"));
        for (File log : logs) {
            for (String line : Files.readAllLines(log.toPath(), StandardCharsets.UTF_8)) {
                if (line.contains(text)) {
                    n++;
                }
            }
        }
        return n;
    }

    /** The shuffle log files of {@code run}'s reduce attempts that still exist. */
    public List<File> shuffleLogs(JobRun run) {
        return reduceLogs(run, "syslog.shuffle");
    }

    /** The log files named {@code fileName} of {@code run}'s reduce attempts that still exist. */
    public List<File> reduceLogs(JobRun run, String fileName) {
        List<File> logs = new ArrayList<>();
        for (AttemptSummary a : run.attempts()) {
            if (a.type() != TaskType.REDUCE || a.containerId().isEmpty()) {
                continue;
            }
            ContainerId cid = ContainerId.fromString(a.containerId());
            String app = cid.getApplicationAttemptId().getApplicationId().toString();
            for (int i = 0; i < cluster.nodeManagerCount(); i++) {
                for (File dir : cluster.logDirs(i)) {
                    File f = new File(dir, app + File.separator + a.containerId() + File.separator
                            + fileName);
                    if (f.isFile()) {
                        logs.add(f);
                    }
                }
            }
        }
        return logs;
    }
}
