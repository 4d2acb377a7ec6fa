package io.courier.shuffle.proxy.server;

import io.courier.scheduler.model.Decision;
import io.courier.scheduler.model.FlowId;
import io.courier.scheduler.planning.SelectAndSplit;
import io.courier.shuffle.proxy.auth.FetchAuthenticator;
import io.courier.shuffle.proxy.auth.InMemorySecrets;
import io.courier.shuffle.proxy.protocol.DataFrame;
import io.courier.shuffle.proxy.protocol.EndFrame;
import io.courier.shuffle.proxy.protocol.FetchFrame;
import io.courier.shuffle.proxy.protocol.FrameDecoder;
import io.courier.shuffle.proxy.protocol.FrameEncoder;
import io.courier.shuffle.proxy.protocol.HandshakeFrame;
import io.courier.shuffle.proxy.protocol.SegmentHeaderFrame;
import io.courier.shuffle.proxy.protocol.Wire;
import io.courier.shuffle.proxy.schedule.FlowBinding;
import io.courier.shuffle.proxy.schedule.SendScheduler;
import io.courier.shuffle.proxy.source.MapOutputFiles;
import io.courier.shuffle.proxy.source.SegmentSource;
import io.courier.shuffle.proxy.testing.Frames;
import io.courier.shuffle.proxy.testing.HadoopMapOutputs;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A connection paced at a decided rate cuts its DATA blocks to its burst ({@code courier.proxy.pacing.burst.bytes},
 * 4 KiB to 64 KiB), so that a shallow burst bounds what one sender puts on the wire at once; unpaced connections
 * keep full 64 KiB blocks whatever the burst.
 */
@Timeout(60)
class PacedBlockSizeTest {
    private static final String JOB = "job_1700000000000_0001";
    private static final String MAP = "attempt_1700000000000_0001_m_000000_0";
    private static final byte[] SECRET = "secret-of-job-1".getBytes(StandardCharsets.UTF_8);
    private static final String CLIENT = "client:2";

    @TempDir
    File dir;
    private HadoopMapOutputs outputs;
    private InMemorySecrets secrets;
    private MapOutputFiles files;

    @BeforeEach
    void setUp() throws Exception {
        outputs = new HadoopMapOutputs(dir);
        files = outputs.write(JOB, MAP, 2, 800, 300, 42);
        secrets = new InMemorySecrets();
        secrets.put(JOB, SECRET);
    }

    @Test
    void aPacedConnectionSendsBlocksNoLargerThanItsBurst() throws Exception {
        SendScheduler scheduler = new SendScheduler("server:1", SelectAndSplit.UNLIMITED, 1 << 20, 16384);
        pace(scheduler, 200e6);
        List<Integer> sizes = new ArrayList<>();
        byte[] got = fetch(scheduler, sizes);
        assertArrayEquals(outputs.expectedSegment(files, 1), got);
        assertTrue(sizes.size() > 4, "the segment must span several blocks: " + sizes);
        for (int i = 0; i < sizes.size(); i++) {
            assertTrue(sizes.get(i) <= 16384, "block " + i + " of a paced connection: " + sizes.get(i) + " bytes");
        }
        assertEquals(16384, (int) sizes.get(0), "blocks are as large as the burst allows");
    }

    @Test
    void aBurstBelowTheSmallestBlockStillSendsThatSmallestBlock() throws Exception {
        SendScheduler scheduler = new SendScheduler("server:1", SelectAndSplit.UNLIMITED, 1 << 20, 1);
        pace(scheduler, 500e6);
        List<Integer> sizes = new ArrayList<>();
        assertArrayEquals(outputs.expectedSegment(files, 1), fetch(scheduler, sizes));
        assertEquals(ConnectionSender.MIN_PACED_BLOCK, (int) sizes.get(0), sizes.toString());
    }

    @Test
    void anUnpacedConnectionSendsFullBlocksWhateverItsBurst() throws Exception {
        SendScheduler scheduler = new SendScheduler("server:1", SelectAndSplit.UNLIMITED, 1 << 20, 16384);
        List<Integer> sizes = new ArrayList<>();
        assertArrayEquals(outputs.expectedSegment(files, 1), fetch(scheduler, sizes));
        assertEquals(Wire.MAX_DATA, (int) sizes.get(0), sizes.toString());
    }

    /**
     * A block taken at 1 B/s puts the bucket 16 KiB in debt: its wake-up is 4.5 hours away. When the rate rises
     * (to 20 blocks a second: each block's debt outlasts the completion of its write, the only other event here)
     * the sender must wake up at the new rate, not wait for that timer or for the next plan change or credit
     * (which left a flow under Aalo sending one block every 13 s, docs/benchmarks.md). Before the fix this fetch
     * never ended.
     */
    @Test
    @Timeout(15)
    void aRateRiseWakesASenderThatOwesTheBucketAtTheOldRate() throws Exception {
        SendScheduler scheduler = new SendScheduler("server:1", SelectAndSplit.UNLIMITED, 1 << 20, 16384);
        pace(scheduler, 1.0);
        List<Integer> sizes = new ArrayList<>();
        byte[] got = fetch(scheduler, sizes, () -> pace(scheduler, 20 * 16384));
        assertArrayEquals(outputs.expectedSegment(files, 1), got);
        assertTrue(sizes.size() > 4, "the segment must span several blocks: " + sizes);
    }

    private static void pace(SendScheduler scheduler, double bytesPerSecond) {
        scheduler.apply(Decision.ofRates(Collections.singletonMap(FlowId.of(1), bytesPerSecond)),
                Collections.singletonList(new FlowBinding(FlowId.of(1), JOB, CLIENT)));
    }

    /**
     * Fetches partition 1 with a window covering the whole segment, running the embedded loop's scheduled tasks
     * (the bucket's wake-ups) until END, and records every DATA payload's size.
     */
    private byte[] fetch(SendScheduler scheduler, List<Integer> sizes) throws Exception {
        return fetch(scheduler, sizes, () -> { });
    }

    /** As {@link #fetch(SendScheduler, List)}, running {@code afterFirstBlock} once the first DATA frame arrived. */
    private byte[] fetch(SendScheduler scheduler, List<Integer> sizes, Runnable afterFirstBlock) throws Exception {
        EmbeddedChannel ch = new EmbeddedChannel(new FrameDecoder(), new FrameEncoder(), new ServerConnectionHandler(
                "server:1", secrets, new SegmentSource(outputs.locator()), scheduler, new ServerCounters(),
                SendSettings.of(1 << 20, false)));
        ch.writeInbound(new HandshakeFrame(CLIENT));
        Frames.written(ch);
        ch.writeInbound(new FetchFrame(1, JOB, MAP, 1, 1 << 24, new FetchAuthenticator().requestMac(SECRET, JOB, MAP, 1)));
        ByteArrayOutputStream data = new ByteArrayOutputStream();
        boolean ended = false;
        while (!ended) {
            ch.runPendingTasks();
            ch.runScheduledPendingTasks();
            for (Object o : Frames.written(ch)) {
                if (o instanceof DataFrame) {
                    DataFrame d = (DataFrame) o;
                    byte[] b = new byte[d.content().readableBytes()];
                    d.content().readBytes(b);
                    d.release();
                    sizes.add(b.length);
                    data.write(b);
                    if (sizes.size() == 1) {
                        afterFirstBlock.run();
                    }
                } else if (o instanceof EndFrame) {
                    ended = true;
                } else if (!(o instanceof SegmentHeaderFrame)) {
                    throw new AssertionError("unexpected " + o);
                }
            }
            if (!ended) {
                Thread.sleep(1); // the bucket refills on the wall clock; the test's timeout bounds the loop
            }
        }
        ch.finishAndReleaseAll();
        return data.toByteArray();
    }
}
