package io.courier.bench.netemu;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The agents' CPU over a run window, per {@link ThreadRole}: every {@link #PERIOD_MILLIS} ms it lists
 * {@code /proc/<pid>/task} of every agent and reads each thread's time on CPU (first field of
 * {@code /proc/<pid>/task/<tid>/schedstat}, nanoseconds: exact where {@code stat}'s utime+stime would round every
 * thread to a 10 ms tick, and reducers start hundreds of threads per run). A thread present at the first sample
 * counts its CPU since that sample; a thread first seen later and started inside the window (its start time in
 * {@code stat}, against {@code /proc/uptime} at the first sample) counts all its CPU (its schedstat starts at 0);
 * a thread that is gone counts up to its last sample. A listing of {@code /proc/<pid>/task} can skip threads while
 * others exit (the directory is read in several chunks by position): a thread missing from a listing is asked
 * through its open schedstat before it counts as gone, and an old thread first seen late (missed by the first
 * listing) counts from when it is seen, never with the CPU it used before the window.
 *
 * <p>Error bound: what a thread used between its last sample and its exit (at most one period of one core per
 * thread that ends in the window), and threads born and ended between two samples, are missed. Both stay in the
 * process total ({@code /proc/<pid>/stat}, which keeps exited threads' CPU), so the run reports the difference as
 * "unattributed" ({@link RoleCpu#unattributedSec}) instead of hiding it. A thread is classified by its name when
 * first seen and again at its second sample (a new Java thread carries its parent's name for the microseconds
 * before it names itself).
 *
 * <p>Owner: the run that {@link #start}s it must {@link #stop} it; sampling is its own thread's, guarded by this
 * object's monitor. Keeps one open schedstat channel per live thread (a {@code pread} per sample, no open/close).
 */
final class ThreadCpuSampler {
    static final long PERIOD_MILLIS = 20;
    /** The sampling thread's nice value in a benchmark: above the agents' -10, so that it runs when it wakes up. */
    static final int NICE = -15;

    private final List<Long> pids;
    private final Path proc;
    private final long periodMillis;
    /** Nice value the sampling thread sets itself to, or null to leave it. */
    private final Integer nice;
    /** Guarded by {@code this}: live threads per tid (pid-qualified), CPU of the threads gone, per role. */
    private final Map<String, Tracked> live = new HashMap<>();
    private final Map<ThreadRole, Long> goneNanos = new EnumMap<>(ThreadRole.class);
    private boolean first = true;
    /** /proc/uptime at the first sample, in USER_HZ ticks: threads that started before it are not the window's. */
    private long windowStartTicks;
    private int threadsSeen;
    private int samples;
    private long lastSampleNanos;
    private long maxGapNanos;
    private String error;
    private volatile boolean running;
    private Thread thread;

    /** One live thread: its role, CPU at its first sample (0 if born in the window), CPU at its last sample. */
    private static final class Tracked {
        final FileChannel schedstat;
        final long baseNanos;
        ThreadRole role;
        long lastNanos;
        int samples = 1;

        Tracked(FileChannel schedstat, ThreadRole role, long baseNanos, long lastNanos) {
            this.schedstat = schedstat;
            this.role = role;
            this.baseNanos = baseNanos;
            this.lastNanos = lastNanos;
        }
    }

    /**
     * {@code proc}: the proc file system's root ({@code /proc}; a directory of the same layout in tests);
     * {@code nice}: the sampling thread's nice value (null: unchanged). The agents run at nice -10
     * (bench/netemu/netemu.sh): a sampler at the driver's nice 0 gets a tenth of their weight and, on a busy
     * machine, samples hundreds of milliseconds apart, missing the reducers' short-lived threads.
     */
    ThreadCpuSampler(List<Long> pids, Path proc, long periodMillis, Integer nice) {
        this.pids = List.copyOf(pids);
        this.proc = proc;
        this.periodMillis = periodMillis;
        this.nice = nice;
    }

    /** Takes the window's first sample now, then samples on its own thread until {@link #stop}. */
    void start() {
        sample();
        running = true;
        thread = new Thread(this::loop, "netemu-thread-cpu-sampler");
        thread.setDaemon(true);
        thread.start();
    }

    private void loop() {
        if (nice != null) {
            String failed = renice(nice);
            if (failed != null) {
                synchronized (this) {
                    error = failed;
                }
            }
        }
        while (running) {
            try {
                Thread.sleep(periodMillis);
            } catch (InterruptedException e) {
                return;
            }
            sample();
        }
    }

    /** Stops sampling, takes the window's last sample and returns the CPU per role since {@link #start}. */
    RoleCpu stop() throws InterruptedException {
        running = false;
        if (thread != null) {
            thread.interrupt();
            thread.join(5000);
        }
        synchronized (this) {
            sample();
            Map<ThreadRole, Long> nanos = new EnumMap<>(goneNanos);
            for (Tracked t : live.values()) {
                nanos.merge(t.role, t.lastNanos - t.baseNanos, Long::sum);
                close(t);
            }
            live.clear();
            Map<ThreadRole, Double> sec = new EnumMap<>(ThreadRole.class);
            for (ThreadRole r : ThreadRole.values()) {
                sec.put(r, nanos.getOrDefault(r, 0L) / 1e9);
            }
            return new RoleCpu(sec, threadsSeen, samples, maxGapNanos / 1e6, error);
        }
    }

    /** One sample of every agent; a failure is kept ({@link RoleCpu#error}) and sampling goes on. */
    synchronized void sample() {
        boolean initial = first;
        first = false;
        if (initial) {
            try {
                windowStartTicks = uptimeTicks();
            } catch (IOException e) {
                error = e.getMessage();
            }
        }
        long now = System.nanoTime();
        if (!initial) {
            maxGapNanos = Math.max(maxGapNanos, now - lastSampleNanos);
        }
        lastSampleNanos = now;
        samples++;
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (long pid : pids) {
            Path tasks = proc.resolve(Long.toString(pid)).resolve("task");
            List<Path> dirs;
            try (Stream<Path> s = Files.list(tasks)) {
                dirs = s.toList();
            } catch (NoSuchFileException e) {
                error = "agent process " + pid + " is gone (" + tasks + ")";
                continue;
            } catch (IOException e) {
                error = "listing " + tasks + ": " + e;
                continue;
            }
            for (Path dir : dirs) {
                String key = pid + "/" + dir.getFileName();
                Tracked t = live.get(key);
                try {
                    if (t == null) {
                        t = track(dir, initial);
                        if (t == null) {
                            continue; // ended between the listing and the read
                        }
                        live.put(key, t);
                        threadsSeen++;
                    } else {
                        t.lastNanos = onCpuNanos(t.schedstat, dir);
                        if (++t.samples == 2) {
                            t.role = ThreadRole.of(Files.readString(dir.resolve("comm"), StandardCharsets.UTF_8));
                        }
                    }
                    seen.add(key);
                } catch (IOException e) {
                    // The thread ended after the listing: it is finished below with its last sample.
                }
            }
        }
        for (Iterator<Map.Entry<String, Tracked>> it = live.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, Tracked> e = it.next();
            if (!seen.contains(e.getKey())) {
                Tracked t = e.getValue();
                try {
                    t.lastNanos = onCpuNanos(t.schedstat, proc);
                    continue; // alive, skipped by the listing
                } catch (IOException gone) {
                    // ended: counts up to its last sample
                }
                goneNanos.merge(t.role, t.lastNanos - t.baseNanos, Long::sum);
                close(t);
                it.remove();
            }
        }
    }

    /** A thread seen for the first time, or null when it ended before it could be read. */
    private Tracked track(Path dir, boolean initial) throws IOException {
        ThreadRole role;
        FileChannel ch;
        try {
            role = ThreadRole.of(Files.readString(dir.resolve("comm"), StandardCharsets.UTF_8));
            ch = FileChannel.open(dir.resolve("schedstat"), StandardOpenOption.READ);
        } catch (NoSuchFileException e) {
            if (Files.isDirectory(dir) && !Files.exists(dir.resolve("schedstat"))) {
                error = "no " + dir.resolve("schedstat") + ": the kernel keeps no per-thread CPU time"
                        + " (CONFIG_SCHED_INFO)";
            }
            return null;
        }
        long now;
        long started;
        try {
            now = onCpuNanos(ch, dir);
            started = initial ? 0 : startTicks(Files.readString(dir.resolve("stat"), StandardCharsets.US_ASCII), dir);
        } catch (IOException e) {
            ch.close();
            return null;
        }
        // Born in the window: all of its CPU is the window's. Started before it (both in whole ticks, so a thread
        // born in the tick before the window counts whole too): from now on only.
        boolean bornInWindow = !initial && started >= windowStartTicks;
        return new Tracked(ch, role, bornInWindow ? 0 : now, now);
    }

    /** The first field of a schedstat line, re-read at offset 0 of the open channel. */
    static long onCpuNanos(FileChannel ch, Path dir) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(128);
        int n = ch.read(b, 0);
        if (n <= 0) {
            throw new IOException(dir.resolve("schedstat") + ": empty");
        }
        return parseSchedstat(new String(b.array(), 0, n, StandardCharsets.US_ASCII), dir);
    }

    /** Seconds since boot ({@code /proc/uptime}, the clock of the threads' start times) in USER_HZ ticks. */
    private long uptimeTicks() throws IOException {
        Path f = proc.resolve("uptime");
        String text = Files.readString(f, StandardCharsets.US_ASCII).strip();
        try {
            return (long) Math.floor(Double.parseDouble(text.split("\\s+")[0]) * RunCpu.USER_HZ);
        } catch (NumberFormatException e) {
            throw new IOException(f + ": not an uptime line: '" + TcQdiscStats.abbreviate(text) + "'");
        }
    }

    /** A thread's start time (field 22 of its stat line: USER_HZ ticks since boot). */
    static long startTicks(String stat, Path dir) throws IOException {
        int close = stat.lastIndexOf(')');
        String[] f = close < 0 ? new String[0] : stat.substring(close + 2).trim().split("\\s+");
        // After "pid (comm) ": state is field 3, so field 22 is index 19.
        try {
            return Long.parseLong(f[19]);
        } catch (RuntimeException e) {
            throw new IOException(dir.resolve("stat") + ": no start time in '" + TcQdiscStats.abbreviate(stat) + "'");
        }
    }

    static long parseSchedstat(String text, Path dir) throws IOException {
        String[] f = text.strip().split("\\s+");
        try {
            return Long.parseLong(f[0]);
        } catch (NumberFormatException e) {
            throw new IOException(dir.resolve("schedstat") + ": not a schedstat line: '"
                    + TcQdiscStats.abbreviate(text) + "'");
        }
    }

    /** Sets the calling thread's nice value; null, or why it could not. */
    private static String renice(int value) {
        try {
            // /proc/thread-self links to <pid>/task/<tid>: the only way from Java to the thread's own tid.
            String tid = Files.readSymbolicLink(Path.of("/proc/thread-self")).getFileName().toString();
            Testbed.exec("renice", "-n", Integer.toString(value), "-p", tid);
            return null;
        } catch (IOException e) {
            return "cannot raise the sampling thread's priority: " + e.getMessage();
        }
    }

    private static void close(Tracked t) {
        try {
            t.schedstat.close();
        } catch (IOException e) {
            // a proc file: nothing to flush
        }
    }
}
