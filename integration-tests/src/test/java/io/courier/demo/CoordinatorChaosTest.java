package io.courier.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Coordinator chaos (issue "Hardening"), the CI-sized run of {@link CoordinatorChaosRun}: three TeraSorts at once
 * on three NodeManagers, first with the coordinators left alone, then while the primary coordinator is stopped
 * for 3 s every 4 s and a standby runs throughout. All jobs must complete with the baseline's output (itself
 * TeraValidate-checked), every proxy must end COORDINATED and listed by the primary, and the longest shuffle
 * stall (a reducer's stream open and no byte relayed anywhere, see {@link ProgressMonitor}) must stay within
 * {@link #STALL_SLACK_MILLIS} of the baseline's. The bound: a proxy stops following a silent coordinator after its
 * 2 s ack timeout and schedules on its own, so an outage may cost at most a few seconds of pacing; 20 s is far
 * above that and far below a hang (a fetch that waits for a coordinator would stall until the 10-minute timeout).
 *
 * <p>The job stall (no job's map or reduce progress moving) is logged but not asserted: it is dominated by YARN
 * (client-side sampling, container waits, reduce progress moving only per whole map output) and varied between
 * 67 s and 106 s in baselines alone, so it once exceeded the chaos phase's by more than the slack with no outage
 * involved.
 */
// About 2.5 min on an idle host; the timeout only guards against a hang (a run under a load average of 100+
// took 25 min).
@Timeout(value = 25, unit = TimeUnit.MINUTES)
class CoordinatorChaosTest {
    private static final Logger LOG = LoggerFactory.getLogger(CoordinatorChaosTest.class);
    static final long STALL_SLACK_MILLIS = 20_000;

    @Test
    void jobsSurviveRepeatedPrimaryCoordinatorStopsWithAStandby() throws Exception {
        CoordinatorChaosRun.Result r = new CoordinatorChaosRun(new CoordinatorChaosRun.Settings(3, 3, 20_000, 2, 1,
                4_000, 3_000, "varys", 64 * 1024, 50, Path.of("target", "coordinator-chaos-test"))).run();
        LOG.info("CHAOS {}", r.baseline().line());
        r.chaos().forEach(p -> LOG.info("CHAOS {}", p.line()));
        LOG.info("CHAOS proxies after: {} within {} ms; primary lists {}, standby {}", r.modesAfter(),
                r.convergeMillis(), r.primaryNodes(), r.standbyNodes());

        assertTrue(r.outputsMatch(), "a job sorted differently while the primary coordinator was stopped");
        assertTrue(r.stops() >= 2, () -> "the primary was stopped only " + r.stops() + " times during the jobs");
        assertTrue(r.modesAfter().stream().allMatch(m -> m.endsWith("=COORDINATED")),
                () -> "proxies not coordinated after the chaos: " + r.modesAfter());
        assertEquals(3, r.primaryNodes(), "every proxy is back on the primary");
        // The shuffle stall is only evidence if the monitor saw the shuffle: bytes relayed, streams open.
        for (CoordinatorChaosRun.Phase p : Stream.concat(Stream.of(r.baseline()), r.chaos().stream()).toList()) {
            assertTrue(p.bytesRelayed() > 0 && p.shuffleActiveFraction() > 0,
                    () -> "the progress monitor saw no shuffle in " + p.line());
        }
        // How many samples saw a stream open during an outage is logged in the phase lines, not asserted: with
        // this workload it ranged from 1 to 15 between runs (the shuffle is 2-12 % of a job), so a bound on it
        // would be a coin toss. What is asserted is that no stall of the shuffle exceeded the baseline's + slack.
        assertTrue(r.longestChaosShuffleStallMillis()
                        <= r.baseline().longestShuffleStallMillis() + STALL_SLACK_MILLIS,
                () -> "longest shuffle stall under chaos " + r.longestChaosShuffleStallMillis() + " ms vs baseline "
                        + r.baseline().longestShuffleStallMillis() + " ms");
    }
}
