package io.courier.bench.netemu;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The Courier coordinator of mode {@link Mode#COURIER_COORD}: the daemon ({@code CoordinatorMain}, what
 * {@code bin/courier coordinator} runs) as a child process of the benchmark driver, in the root namespace, bound
 * to the management bridge's address. A process of its own so that its CPU is measured like the agents' (by PID)
 * and kept apart from the emulation's. Its PID also goes to netemu.sh's PID file, so that teardown stops it should
 * the driver die without {@link #close()}. Owned by the driver's main thread, which starts and closes it.
 */
final class CoordinatorProcess implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(CoordinatorProcess.class);

    private final Process process;
    private final String address;
    private final String scheduler;

    private CoordinatorProcess(Process process, String address, String scheduler) {
        this.process = process;
        this.address = address;
        this.scheduler = scheduler;
    }

    /**
     * Starts the coordinator (scheduler {@code scheduler}, epoch {@code epochMillis}, default port capacity
     * {@code capacityBytesPerSec} both ways) at {@code host:port}, logging to {@code log}; returns once its Artery
     * port accepts connections.
     *
     * @param pidFile netemu.sh's PID file (a line {@code <pid> coordinator} is appended); null: none
     * @throws IOException when it exits or does not listen within {@code timeoutMillis}, with its log's tail
     */
    static CoordinatorProcess start(String host, int port, String scheduler, long epochMillis,
            long capacityBytesPerSec, Path log, Path pidFile, long timeoutMillis) throws IOException {
        String java = ProcessHandle.current().info().command().orElse("java");
        // nice -n -15 (nice execs, so the PID is the JVM's): the coordinator stands for a machine of its own, but
        // here it shares two cores with the emulated hosts' agents (nice -10) and, outranked by them, missed its
        // acks for 2 s at a time so that coordinated proxies fell back mid-run (docs/benchmarks.md, netemu).
        List<String> cmd = new ArrayList<>(List.of("nice", "-n", "-15", java, "-Xmx256m", "-XX:+UseSerialGC",
                "-Djava.net.preferIPv4Stack=true", "-Dlog4j.configuration=netemu-coordinator-log4j.properties",
                "-Dcourier.coordinator.default-capacity.up=" + capacityBytesPerSec,
                "-Dcourier.coordinator.default-capacity.down=" + capacityBytesPerSec,
                "-cp", System.getProperty("java.class.path"), "io.courier.coordinator.CoordinatorMain",
                "--hostname", host, "--port", Integer.toString(port), "--http-port", "0",
                "--scheduler", scheduler, "--epoch-ms", Long.toString(epochMillis)));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        CoordinatorProcess c = new CoordinatorProcess(p, host + ":" + port, scheduler);
        try {
            if (pidFile != null && Files.isDirectory(pidFile.getParent())) {
                Files.writeString(pidFile, p.pid() + " coordinator\n", StandardCharsets.US_ASCII,
                        StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            }
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
            while (!listening(host, port)) {
                if (!p.isAlive()) {
                    throw new IOException("coordinator (" + scheduler + " at " + c.address + ") exited with "
                            + p.exitValue() + ": " + tail(log));
                }
                if (System.nanoTime() > deadline) {
                    throw new IOException("coordinator (" + scheduler + " at " + c.address + ") not listening after "
                            + timeoutMillis + " ms: " + tail(log));
                }
                // Polling a port: the daemon has no readiness signal.
                Thread.sleep(200);
            }
        } catch (IOException | RuntimeException e) {
            c.close();
            throw e;
        } catch (InterruptedException e) {
            c.close();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while starting the coordinator", e);
        }
        LOG.info("coordinator pid {} listening at {} (scheduler {}, epoch {} ms, capacity {} B/s per port), log {}",
                p.pid(), c.address, scheduler, epochMillis, capacityBytesPerSec, log);
        return c;
    }

    private static boolean listening(String host, int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(host, port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join(" | ", lines.subList(Math.max(0, lines.size() - 5), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    long pid() {
        return process.pid();
    }

    /** {@code host:port} of its Artery endpoint (the proxies' {@code courier.coordinator.address}). */
    String address() {
        return address;
    }

    String scheduler() {
        return scheduler;
    }

    /** SIGTERM (its shutdown hook stops the actor system), SIGKILL after 15 s. Idempotent. */
    @Override
    public void close() {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(15, TimeUnit.SECONDS)) {
                LOG.warn("coordinator pid {} did not stop within 15 s of SIGTERM; killing it", process.pid());
                process.destroyForcibly();
                process.waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
