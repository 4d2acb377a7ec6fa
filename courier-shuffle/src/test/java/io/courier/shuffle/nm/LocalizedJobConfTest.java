package io.courier.shuffle.nm;

import io.courier.shuffle.coordination.CoflowHint;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LocalizedJobConfTest {
    private static final String JOB = NodeManagerMapOutputLocatorTest.JOB;
    private static final String APP = NodeManagerMapOutputLocatorTest.APP;

    @TempDir
    File tmp;

    /** Writes a job.xml where the NodeManager localizes it: {@code usercache/<u>/appcache/<app>/filecache/<n>/}. */
    private void writeJobXml(File localDir, String user, int resource, String... keyValues) throws IOException {
        Configuration job = new Configuration(false);
        for (int i = 0; i < keyValues.length; i += 2) {
            job.set(keyValues[i], keyValues[i + 1]);
        }
        job.set("mapreduce.job.name", "TeraSort");
        File dir = new File(localDir, "usercache/" + user + "/appcache/" + APP + "/filecache/" + resource);
        assertTrue(dir.mkdirs());
        try (OutputStream out = new FileOutputStream(new File(dir, "job.xml"))) {
            job.writeXml(out);
        }
    }

    private LocalizedJobConf reader(String user, File... localDirs) {
        Configuration conf = new Configuration(false);
        StringBuilder dirs = new StringBuilder();
        for (File d : localDirs) {
            dirs.append(dirs.length() == 0 ? "" : ",").append(d.getAbsolutePath());
        }
        conf.set(YarnConfiguration.NM_LOCAL_DIRS, dirs.toString());
        LocalDirsPathHandler paths = new LocalDirsPathHandler(conf);
        return new LocalizedJobConf(job -> JOB.equals(job) ? user : null, () -> paths);
    }

    @Test
    void readsTheWeightAndPriorityOfTheLocalizedJobConf() throws IOException {
        File a = new File(tmp, "a");
        File b = new File(tmp, "b");
        assertTrue(a.mkdirs());
        new File(a, "usercache/alice/appcache/" + APP + "/filecache/10").mkdirs(); // another resource, no job.xml
        writeJobXml(b, "alice", 11, LocalizedJobConf.WEIGHT, " 4.5 ", LocalizedJobConf.PRIORITY, "HIGH");
        CoflowHint h = reader("alice", a, b).hintFor(JOB);
        assertEquals(4.5, h.weight());
        assertEquals("HIGH", h.priority());
    }

    @Test
    void aJobWithoutAWeightGivesItsPriority() throws IOException {
        writeJobXml(tmp, "alice", 3, LocalizedJobConf.PRIORITY, "VERY_LOW");
        CoflowHint h = reader("alice", tmp).hintFor(JOB);
        assertTrue(Double.isNaN(h.weight()));
        assertEquals("VERY_LOW", h.priority());
    }

    @Test
    void aWeightThatIsNotAPositiveNumberIsIgnoredInFavourOfThePriority() throws IOException {
        writeJobXml(tmp, "alice", 3, LocalizedJobConf.WEIGHT, "-2", LocalizedJobConf.PRIORITY, "LOW");
        CoflowHint h = reader("alice", tmp).hintFor(JOB);
        assertTrue(Double.isNaN(h.weight()));
        assertEquals("LOW", h.priority());
        assertTrue(Double.isNaN(LocalizedJobConf.hintOf(JOB, "heavy", "").weight()));
        assertTrue(Double.isNaN(LocalizedJobConf.hintOf(JOB, "Infinity", "").weight()));
    }

    @Test
    void anUnknownJobUserOrMissingFileGivesNoHint() throws IOException {
        assertEquals(CoflowHint.NONE.toString(), reader("alice", tmp).hintFor(JOB).toString());
        writeJobXml(tmp, "alice", 3, LocalizedJobConf.WEIGHT, "2");
        assertEquals(CoflowHint.NONE.toString(), reader("alice", tmp).hintFor("job_1795339711470_0009").toString());
        assertEquals(CoflowHint.NONE.toString(), reader("../alice", tmp).hintFor(JOB).toString());
        assertEquals(2.0, reader("alice", tmp).hintFor(JOB).weight());
    }

    @Test
    void anUnparseableJobXmlGivesNoHint() throws IOException {
        File dir = new File(tmp, "usercache/alice/appcache/" + APP + "/filecache/7");
        assertTrue(dir.mkdirs());
        try (OutputStream out = new FileOutputStream(new File(dir, "job.xml"))) {
            out.write("<configuration><property><name>courier.coflow.weight".getBytes("UTF-8"));
        }
        assertEquals(CoflowHint.NONE.toString(), reader("alice", tmp).hintFor(JOB).toString());
    }
}
