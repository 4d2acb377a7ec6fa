package io.courier.shuffle.coordination;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.courier.coordinator.protocol.FlowReport;
import io.courier.scheduler.planning.SelectAndSplit;
import io.courier.shuffle.proxy.schedule.SendScheduler;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** What a proxy reports to the coordinator, read from its send ledger. */
class LedgerReportsTest {
    private static final String SELF = "nm-a:13563";
    private static final String PEER = "nm-b:13563";

    @Test
    void reportsTheFlowsToOtherNodesButNotTheNodeLocalOnes() {
        SendScheduler scheduler = new SendScheduler(SELF, SelectAndSplit.UNLIMITED, 1 << 20);
        AtomicLong clock = new AtomicLong(1_000_000_000L);
        LedgerReports reports = new LedgerReports(SELF, scheduler.ledger(), clock::get);
        scheduler.streamStarted("job_1", PEER, 1_000);
        scheduler.streamStarted("job_1", SELF, 5_000);
        scheduler.streamStarted("job_2", SELF, 7_000);
        scheduler.sent(SendScheduler.flowKey("job_1", PEER), 400);
        scheduler.sent(SendScheduler.flowKey("job_1", SELF), 5_000);

        List<FlowReport> rows = reports.currentFlows();
        assertEquals(1, rows.size(), () -> "node-local flows reported: " + rows);
        FlowReport r = rows.get(0);
        assertEquals("job_1", r.jobId());
        assertEquals(SELF, r.srcNode());
        assertEquals(PEER, r.dstNode());
        assertEquals(400, r.bytesSent());
        assertEquals(600, r.bytesPending());
        assertFalse(r.finished());

        clock.addAndGet(1_000_000_000L);
        scheduler.sent(SendScheduler.flowKey("job_1", PEER), 600);
        scheduler.streamEnded("job_1", PEER, 0);
        FlowReport done = reports.currentFlows().get(0);
        assertEquals(600.0, done.measuredRate(), 1e-9, "600 bytes in one second");
        assertTrue(done.finished(), "no open stream and nothing pending");
    }
}
