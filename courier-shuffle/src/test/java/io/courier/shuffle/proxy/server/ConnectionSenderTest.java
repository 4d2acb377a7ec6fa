package io.courier.shuffle.proxy.server;

import io.courier.scheduler.planning.SelectAndSplit;
import io.courier.shuffle.proxy.schedule.SendScheduler;
import io.courier.shuffle.proxy.source.Segment;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** One connection's sender against a real scheduler, on an embedded channel (its own event loop). */
class ConnectionSenderTest {
    @TempDir
    File dir;

    /** A connection to "peer" with no decision and no split: every flow of the peer has class (0, 1). */
    private ConnectionSender sender(EmbeddedChannel ch) {
        SendScheduler scheduler = new SendScheduler("self", SelectAndSplit.UNLIMITED, 1e15);
        ConnectionSender sender = new ConnectionSender(ch, scheduler, new ServerCounters(),
                SendSettings.of(1 << 20, false));
        sender.start("peer");
        return sender;
    }

    private File dataFile() throws Exception {
        File data = new File(dir, "file.out");
        Files.write(data.toPath(), new byte[8192]);
        return data;
    }

    private OutboundStream stream(File data, int id, String job, long bytes, long credit) throws Exception {
        FileChannel file = FileChannel.open(data.toPath(), StandardOpenOption.READ);
        return new OutboundStream(id, job, "attempt_" + id, new Segment(data, 0, bytes, bytes), file, credit);
    }

    @Test
    void aJobsStreamsShareItsWeightAnewWhenOneEndsThoughThePeersPlanStaysTheSame() throws Exception {
        File data = dataFile();
        EmbeddedChannel ch = new EmbeddedChannel();
        // The pair's plan never moves, so the scheduler does not call this connection when a stream of a flow that
        // still has others ends.
        ConnectionSender sender = sender(ch);
        OutboundStream a1 = stream(data, 1, "job_a", 4096, 0); // no credit: it waits
        OutboundStream b = stream(data, 2, "job_b", 4096, 0);
        sender.add(a1);
        sender.add(b);
        OutboundStream a2 = stream(data, 3, "job_a", 100, 100);
        sender.add(a2);
        // a2 was sent at once and ended in that pass; job_a has one stream here again: all of its class weight.
        assertFalse(sender.has(3));
        assertEquals(1.0, a1.weight, 0.0);
        assertEquals(1.0, b.weight, 0.0);
        sender.close();
        ch.finishAndReleaseAll();
    }

    @Test
    void aSecondStreamOfAJobHalvesItsShareAtOnce() throws Exception {
        File data = dataFile();
        EmbeddedChannel ch = new EmbeddedChannel();
        ConnectionSender sender = sender(ch);
        OutboundStream a1 = stream(data, 1, "job_a", 4096, 0);
        OutboundStream a2 = stream(data, 2, "job_a", 4096, 0);
        OutboundStream b = stream(data, 3, "job_b", 4096, 0);
        sender.add(a1);
        sender.add(b);
        sender.add(a2);
        assertEquals(0.5, a1.weight, 0.0);
        assertEquals(0.5, a2.weight, 0.0);
        assertEquals(1.0, b.weight, 0.0);
        sender.cancel(2);
        assertEquals(1.0, a1.weight, 0.0);
        sender.close();
        ch.finishAndReleaseAll();
    }
}
