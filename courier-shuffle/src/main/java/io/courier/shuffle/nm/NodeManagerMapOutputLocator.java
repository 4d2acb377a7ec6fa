package io.courier.shuffle.nm;

import io.courier.shuffle.proxy.auth.MapAttemptIds;
import io.courier.shuffle.proxy.relay.TaskUsers;
import io.courier.shuffle.proxy.source.MapOutputFiles;
import io.courier.shuffle.proxy.source.MapOutputLocator;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.util.DiskChecker;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.server.api.AuxiliaryLocalPathHandler;

import java.io.File;
import java.io.IOException;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Finds a finished map's {@code file.out} and {@code file.out.index} where the NodeManager keeps them:
 * {@code usercache/<user>/appcache/<appId>/output/<mapAttempt>/} under one of its local dirs, resolved through the
 * service's {@link AuxiliaryLocalPathHandler} (the same layout ShuffleHandler's private {@code getBaseLocation}
 * builds). The user comes from ShuffleHandler's job → user table; the application id from the job id. The files
 * name the user who must own them, the one the job's containers run as (the proxy refuses others:
 * {@code SegmentSource}), unless {@code courier.proxy.map-output.owner-check} is false.
 * Stateless apart from its suppliers; thread-safe.
 */
public final class NodeManagerMapOutputLocator implements MapOutputLocator {
    static final String DATA_FILE_NAME = "file.out";
    static final String INDEX_FILE_NAME = "file.out.index";

    private final Function<String, String> userOfJob;
    private final Supplier<AuxiliaryLocalPathHandler> paths;
    /** Null: ownership not checked. */
    private final TaskUsers owners;

    /**
     * @param userOfJob the user who runs a job on this node, or null when the job is unknown here
     * @param paths     the NodeManager's local-path handler (asked on every lookup: it can change after start)
     * @param owners    the user who must own a job's map outputs; null: not checked
     */
    public NodeManagerMapOutputLocator(Function<String, String> userOfJob, Supplier<AuxiliaryLocalPathHandler> paths,
            TaskUsers owners) {
        this.userOfJob = userOfJob;
        this.paths = paths;
        this.owners = owners;
    }

    /** The application id string of a MapReduce job id ({@code job_<ts>_<n>} → {@code application_<ts>_<n>}). */
    static String applicationOf(String job) {
        JobID id;
        try {
            id = JobID.forName(job);
        } catch (IllegalArgumentException e) {
            return null;
        }
        return ApplicationId.newInstance(Long.parseLong(id.getJtIdentifier()), id.getId()).toString();
    }

    /** The NodeManager-relative directory of a map attempt's output. */
    static String baseLocation(String user, String application, String mapAttempt) {
        return "usercache/" + user + "/appcache/" + application + "/output/" + mapAttempt + "/";
    }

    @Override
    public MapOutputFiles locate(String job, String mapAttempt) throws IOException {
        // The ids become path elements: accept only well-formed ids of the same job (no "..", no separators).
        if (!MapAttemptIds.belongsTo(job, mapAttempt)) {
            return null;
        }
        String user = userOfJob.apply(job);
        String application = applicationOf(job);
        if (user == null || application == null || user.isEmpty() || user.contains("/") || user.contains("..")) {
            return null;
        }
        AuxiliaryLocalPathHandler handler = paths.get();
        if (handler == null) {
            throw new IOException("no NodeManager local-path handler to locate " + mapAttempt + " of " + job);
        }
        String base = baseLocation(user, application, mapAttempt);
        Path index;
        Path data;
        try {
            index = handler.getLocalPathForRead(base + INDEX_FILE_NAME);
            data = handler.getLocalPathForRead(base + DATA_FILE_NAME);
        } catch (DiskChecker.DiskErrorException e) {
            return null; // "could not find" in every local dir: no output of this attempt on this node
        }
        if (index == null || data == null) {
            return null;
        }
        File indexFile = new File(index.toUri().getPath());
        File dataFile = new File(data.toUri().getPath());
        if (!indexFile.isFile() || !dataFile.isFile()) {
            return null;
        }
        String owner = owners == null ? null : owners.userOf(job);
        return new MapOutputFiles(dataFile, indexFile, owner);
    }
}
