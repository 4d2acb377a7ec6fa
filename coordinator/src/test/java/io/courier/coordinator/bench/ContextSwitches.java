package io.courier.coordinator.bench;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;

/**
 * Context switches of this process so far (Linux): the sum over its live threads of {@code voluntary_ctxt_switches}
 * (the thread blocked or parked: a wake-up is needed to run it again) and {@code nonvoluntary_ctxt_switches}
 * (preempted) from {@code /proc/self/task/N/status}. Threads that ended are not counted. -1 where {@code /proc} is
 * missing. For the scale benchmark: thread hand-offs per message moved are a large part of what a message costs.
 */
final class ContextSwitches {
    private ContextSwitches() {
    }

    /** {voluntary, nonvoluntary}, or {-1, -1} when unavailable. */
    static long[] now() {
        File[] tasks = new File("/proc/self/task").listFiles();
        if (tasks == null) {
            return new long[] {-1, -1};
        }
        long voluntary = 0;
        long involuntary = 0;
        for (File t : tasks) {
            try {
                for (String line : Files.readAllLines(new File(t, "status").toPath(), StandardCharsets.US_ASCII)) {
                    if (line.startsWith("voluntary_ctxt_switches:")) {
                        voluntary += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                    } else if (line.startsWith("nonvoluntary_ctxt_switches:")) {
                        involuntary += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                    }
                }
            } catch (IOException | RuntimeException e) {
                // the thread ended while we read: not counted
            }
        }
        return new long[] {voluntary, involuntary};
    }
}
