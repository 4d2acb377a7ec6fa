package io.courier.shuffle.proxy.source;

import io.courier.shuffle.proxy.protocol.ErrorCode;
import io.courier.shuffle.proxy.testing.HadoopMapOutputs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A map output is served only from files its job's user owns (Hadoop's {@code TestShuffleHandler.testMapFileAccess}
 * for Courier's proxy): a job's user who leaves a symbolic link, or a file of someone else, at its own
 * {@code file.out} or {@code file.out.index} gets {@code OUTPUT_NOT_OWNED}, never the other file's bytes (and a
 * link put there after the check fails the no-follow open).
 */
class SegmentSourceOwnerTest {
    private static final String JOB = "job_1700000000000_0001";
    private static final String MAP = "attempt_1700000000000_0001_m_000000_0";
    private static final String OTHER_MAP = "attempt_1700000000000_0002_m_000000_0";
    private static final String ME = System.getProperty("user.name");

    @TempDir
    File dir;

    /** Serves {@code files} (as the NodeManager's locator returns them) for every attempt. */
    private static SegmentSource source(MapOutputFiles files) {
        return new SegmentSource((job, map) -> files);
    }

    private MapOutputFiles written(String name, String map) throws IOException {
        return new HadoopMapOutputs(new File(dir, name)).write(JOB, map, 2, 20, 200, 1);
    }

    private static MapOutputFiles ownedBy(MapOutputFiles f, String owner) {
        return new MapOutputFiles(f.data(), f.index(), owner);
    }

    private static SegmentException refused(SegmentSource s) {
        return assertThrows(SegmentException.class, () -> {
            OpenSegment o = s.openForReading(JOB, MAP, 0);
            o.channel().close();
        });
    }

    @Test
    void filesOfTheJobsUserAreServed() throws Exception {
        MapOutputFiles f = ownedBy(written("mine", MAP), ME);
        OpenSegment o = source(f).openForReading(JOB, MAP, 1);
        o.channel().close();
        assertTrue(o.segment().length() > 0);
    }

    @Test
    void filesOfAnotherUserAreRefusedNamingBothUsers() throws Exception {
        MapOutputFiles f = ownedBy(written("mine", MAP), "courier-not-" + ME);
        SegmentException e = refused(source(f));
        assertEquals(ErrorCode.OUTPUT_NOT_OWNED, e.code());
        assertTrue(e.getMessage().contains("owned by " + ME) && e.getMessage().contains("not by courier-not-" + ME),
                e.getMessage());
    }

    @Test
    void aSymbolicLinkInPlaceOfTheIndexIsRefused() throws Exception {
        MapOutputFiles victim = written("victim", OTHER_MAP);
        MapOutputFiles mine = written("mine", MAP);
        Files.delete(mine.index().toPath());
        Files.createSymbolicLink(mine.index().toPath(), victim.index().toPath());
        SegmentException e = refused(source(ownedBy(mine, ME)));
        assertEquals(ErrorCode.OUTPUT_NOT_OWNED, e.code());
        assertTrue(e.getMessage().contains("symbolic link"), e.getMessage());
    }

    @Test
    void aSymbolicLinkInPlaceOfTheDataFileIsRefused() throws Exception {
        MapOutputFiles victim = written("victim", OTHER_MAP);
        MapOutputFiles mine = written("mine", MAP);
        Files.delete(mine.data().toPath());
        Files.createSymbolicLink(mine.data().toPath(), victim.data().toPath());
        SegmentException e = refused(source(ownedBy(mine, ME)));
        assertEquals(ErrorCode.OUTPUT_NOT_OWNED, e.code(), e.getMessage());
        assertTrue(e.getMessage().contains("symbolic link"), e.getMessage());
    }

    @Test
    void aFileChownedToAnotherUserIsRefused() throws Exception {
        assumeTrue("root".equals(ME), "changing a file's owner needs root");
        MapOutputFiles mine = written("mine", MAP);
        Path data = mine.data().toPath();
        UserPrincipal nobody = data.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
        Files.setOwner(data, nobody);
        SegmentException e = refused(source(ownedBy(mine, ME)));
        assertEquals(ErrorCode.OUTPUT_NOT_OWNED, e.code());
        assertTrue(e.getMessage().contains("owned by nobody"), e.getMessage());
    }
}
