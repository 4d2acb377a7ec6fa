package io.courier.shuffle.nm;

import io.courier.shuffle.coordination.CoflowHint;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.yarn.server.api.AuxiliaryLocalPathHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.File;
import java.io.IOException;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A job's coflow hint read from its configuration as this NodeManager localized it for the job's tasks: the
 * NodeManager never receives a job's configuration, but every MapReduce task container gets {@code job.xml} as an
 * application resource ({@code usercache/<user>/appcache/<app>/filecache/<n>/job.xml}), and a node serves a job's
 * map outputs only after one of its maps ran there. Reads {@code courier.coflow.weight} and
 * {@code mapreduce.job.priority}; anything missing or unreadable gives no hint (the coordinator's default weight),
 * with a warning for a weight that is not a positive number. Stateless; any thread (the coordination's planning
 * thread calls it, never an event loop: parsing a job.xml takes tens of milliseconds).
 */
final class LocalizedJobConf implements CoflowHint.Source {
    static final String WEIGHT = "courier.coflow.weight";
    static final String PRIORITY = "mapreduce.job.priority";
    private static final Logger LOG = LoggerFactory.getLogger(LocalizedJobConf.class);

    private final Function<String, String> userOfJob;
    private final Supplier<AuxiliaryLocalPathHandler> paths;

    LocalizedJobConf(Function<String, String> userOfJob, Supplier<AuxiliaryLocalPathHandler> paths) {
        this.userOfJob = userOfJob;
        this.paths = paths;
    }

    @Override
    public CoflowHint hintFor(String job) {
        File xml;
        try {
            xml = find(job);
        } catch (IOException e) {
            LOG.debug("Courier: cannot look for the configuration of {}: {}", job, e.toString());
            return CoflowHint.NONE;
        }
        if (xml == null) {
            LOG.debug("Courier: no localized job.xml of {} on this node; its coflow gets the default weight", job);
            return CoflowHint.NONE;
        }
        Configuration conf = new Configuration(false);
        try {
            conf.addResource(new Path(xml.getAbsolutePath()));
            return hintOf(job, conf.get(WEIGHT), conf.getTrimmed(PRIORITY, ""));
        } catch (RuntimeException e) {
            LOG.warn("Courier: cannot read {} of {}: {}; its coflow gets the default weight", xml, job, e.toString());
            return CoflowHint.NONE;
        }
    }

    /** The hint of {@code job} from its raw weight and priority values. */
    static CoflowHint hintOf(String job, String weight, String priority) {
        double w = Double.NaN;
        if (weight != null && !weight.trim().isEmpty()) {
            try {
                w = Double.parseDouble(weight.trim());
            } catch (NumberFormatException e) {
                w = -1;
            }
            if (!(w > 0) || Double.isInfinite(w)) {
                LOG.warn("Courier: {}={} of {} is not a positive number; using its priority '{}' instead", WEIGHT,
                        weight, job, priority);
                w = Double.NaN;
            }
        }
        return new CoflowHint(w, priority);
    }

    /** The job.xml the NodeManager localized for {@code job}'s containers, or null. */
    private File find(String job) throws IOException {
        String user = userOfJob.apply(job);
        String application = NodeManagerMapOutputLocator.applicationOf(job);
        AuxiliaryLocalPathHandler handler = paths.get();
        if (user == null || application == null || handler == null || user.isEmpty() || user.contains("/")
                || user.contains("..")) {
            return null;
        }
        for (Path dir : handler.getAllLocalPathsForRead("usercache/" + user + "/appcache/" + application + "/filecache")) {
            File[] resources = new File(dir.toUri().getPath()).listFiles();
            if (resources == null) {
                continue;
            }
            for (File r : resources) {
                File xml = new File(r, "job.xml");
                if (xml.isFile()) {
                    return xml;
                }
            }
        }
        return null;
    }
}
