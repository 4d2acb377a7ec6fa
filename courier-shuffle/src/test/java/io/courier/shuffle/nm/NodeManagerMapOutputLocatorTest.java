package io.courier.shuffle.nm;

import io.courier.shuffle.proxy.source.MapOutputFiles;
import io.courier.shuffle.proxy.testing.HadoopMapOutputs;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.server.api.AuxiliaryLocalPathHandler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

class NodeManagerMapOutputLocatorTest {
    static final String JOB = "job_1795339711470_0002";
    static final String APP = "application_1795339711470_0002";
    static final String MAP = "attempt_1795339711470_0002_m_000003_0";

    @TempDir
    File tmp;

    /** Writes a map output where the NodeManager puts it: {@code <localDir>/usercache/<user>/appcache/<app>/output/<map>/}. */
    static MapOutputFiles writeNmOutput(File localDir, String user, String app, String map, int partitions)
            throws IOException {
        HadoopMapOutputs out = new HadoopMapOutputs(new File(localDir, "usercache/" + user + "/appcache/" + app));
        return out.write("output", map, partitions, 20, 100, 42);
    }

    private NodeManagerMapOutputLocator locator(Map<String, String> users, File... localDirs) {
        Configuration conf = new Configuration(false);
        StringBuilder dirs = new StringBuilder();
        for (File d : localDirs) {
            dirs.append(dirs.length() == 0 ? "" : ",").append(d.getAbsolutePath());
        }
        conf.set("yarn.nodemanager.local-dirs", dirs.toString());
        AuxiliaryLocalPathHandler paths = new LocalDirsPathHandler(conf);
        return new NodeManagerMapOutputLocator(users::get, () -> paths, null);
    }

    @Test
    void findsOutputInAnyLocalDir() throws IOException {
        File d1 = new File(tmp, "nm-local-1");
        File d2 = new File(tmp, "nm-local-2");
        MapOutputFiles written = writeNmOutput(d2, "alice", APP, MAP, 3);
        Map<String, String> users = new HashMap<>();
        users.put(JOB, "alice");
        MapOutputFiles found = locator(users, d1, d2).locate(JOB, MAP);
        assertNotNull(found);
        assertEquals(written.data().getCanonicalFile(), found.data().getCanonicalFile());
        assertEquals(written.index().getCanonicalFile(), found.index().getCanonicalFile());
        assertEquals(new File(d2, "usercache/alice/appcache/" + APP + "/output/" + MAP + "/file.out.index")
                .getCanonicalFile(), found.index().getCanonicalFile());
    }

    @Test
    void theFilesNameTheUserTheJobsContainersRunAsAsTheirOwner() throws IOException {
        File d1 = new File(tmp, "nm-local");
        writeNmOutput(d1, "alice", APP, MAP, 2);
        Map<String, String> users = new HashMap<>();
        users.put(JOB, "alice");
        Configuration conf = new Configuration(false);
        conf.set("yarn.nodemanager.local-dirs", d1.getAbsolutePath());
        conf.set(ContainerUsers.EXECUTOR, "org.apache.hadoop.yarn.server.nodemanager.LinuxContainerExecutor");
        conf.setBoolean(ContainerUsers.LIMIT_USERS, false);
        AuxiliaryLocalPathHandler paths = new LocalDirsPathHandler(conf);
        NodeManagerMapOutputLocator l = new NodeManagerMapOutputLocator(users::get, () -> paths,
                ContainerUsers.runAs(conf, users::get));
        assertEquals("alice", l.locate(JOB, MAP).owner());
        assertNull(locator(users, d1).locate(JOB, MAP).owner(), "no owners: not checked");
    }

    @Test
    void unknownJobUserOrAttemptIsNotFound() throws IOException {
        File d1 = new File(tmp, "nm-local");
        writeNmOutput(d1, "alice", APP, MAP, 2);
        Map<String, String> users = new HashMap<>();
        users.put(JOB, "alice");
        NodeManagerMapOutputLocator l = locator(users, d1);
        assertNull(l.locate("job_1795339711470_0003", "attempt_1795339711470_0003_m_000003_0"), "job not on node");
        assertNull(l.locate(JOB, "attempt_1795339711470_0002_m_000004_0"), "attempt without output");
        assertNull(l.locate(JOB, "attempt_1795339711470_0001_m_000003_0"), "attempt of another job");
        assertNull(l.locate(JOB, "../../../etc"), "not an attempt id");
        users.put(JOB, "bob");
        assertNull(l.locate(JOB, MAP), "output of another user's directory");
    }

    @Test
    void indexWithoutDataIsNotFound() throws IOException {
        File d1 = new File(tmp, "nm-local");
        MapOutputFiles f = writeNmOutput(d1, "alice", APP, MAP, 2);
        if (!f.data().delete()) {
            throw new IOException("cannot delete " + f.data());
        }
        Map<String, String> users = new HashMap<>();
        users.put(JOB, "alice");
        assertNull(locator(users, d1).locate(JOB, MAP));
    }

    @Test
    void missingPathHandlerIsAnError() {
        Map<String, String> users = new HashMap<>();
        users.put(JOB, "alice");
        NodeManagerMapOutputLocator l = new NodeManagerMapOutputLocator(users::get, () -> null, null);
        assertThrows(IOException.class, () -> l.locate(JOB, MAP));
    }

    @Test
    void applicationIdOfJobId() {
        assertEquals(APP, NodeManagerMapOutputLocator.applicationOf(JOB));
        assertEquals("application_1_12345", NodeManagerMapOutputLocator.applicationOf("job_1_12345"));
        assertNull(NodeManagerMapOutputLocator.applicationOf("not-a-job"));
    }
}
