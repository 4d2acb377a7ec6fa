package io.courier.coordinator.client;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.courier.coordinator.PekkoSettings;
import io.courier.coordinator.protocol.ClientCommand;
import io.courier.coordinator.protocol.CoflowRegistered;
import io.courier.coordinator.protocol.NodeInfo;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.pekko.actor.BootstrapSetup;
import org.apache.pekko.actor.typed.ActorSystem;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The coordinator client a proxy embeds (in the NodeManager): a small actor system of its own (Artery TCP,
 * Kryo wire format) whose only actor is a {@link ClientActor}. It registers the node, evaluates the proxy's
 * {@link ReportSource} every interval and reports what the coordinator cannot predict ({@link ReportGate}), delivers decisions and mode changes to the
 * {@link CoordinatorListener}, falls back when the coordinator goes silent and re-registers when it comes
 * back. Its API has no Hadoop, Netty or Pekko types.
 *
 * <p>A client that has been in FALLBACK for {@link ClientSettings#systemRestartMillis()} replaces its actor
 * system with a fresh one and replays its coflow registrations: after a few seconds of refused connections Pekko
 * Artery stops delivering to the coordinator's address, so a coordinator restarted there would otherwise never
 * hear from this proxy again (docs/coordinator.md, "Fallback and restart").
 *
 * <p>Whoever calls {@link #start} owns the client and must {@link #close()} it; the client owns its actor system
 * and one watchdog thread, both stopped by {@link #close()}. Every method is thread-safe.
 */
public final class CoordinatorClient implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(CoordinatorClient.class);

    private final ClientSettings settings;
    private final NodeInfo node;
    private final ReportSource source;
    private final CoordinatorListener listener;
    private final ClassLoader classLoader;
    private final AtomicReference<Mode> mode = new AtomicReference<Mode>(Mode.FALLBACK);
    /** Index of the coordinator the actor registered with last (0: the primary), set by the actor. */
    private final java.util.concurrent.atomic.AtomicInteger following = new java.util.concurrent.atomic.AtomicInteger();
    /** Coflows registered and not completed, in order: replayed into a replacement actor system. */
    private final Map<String, CoflowRegistered> coflows = new LinkedHashMap<String, CoflowRegistered>();
    private final ScheduledExecutorService watchdog;
    /** Guarded by {@code this}: the current actor system, and when this client was last seen coordinated. */
    private ActorSystem<ClientCommand> system;
    private long lastCoordinatedNanos = System.nanoTime();
    /** Guarded by {@code this}: when this client was last seen following the primary. */
    private long lastOnPrimaryNanos = System.nanoTime();
    private boolean closed;

    private CoordinatorClient(ClientSettings settings, NodeInfo node, ReportSource source,
            CoordinatorListener listener, ClassLoader classLoader) {
        this.settings = settings;
        this.node = node;
        this.source = source;
        this.listener = listener;
        this.classLoader = classLoader;
        this.watchdog = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "courier-coordinator-client-watchdog " + node.nodeId());
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Starts the client. {@code classLoader} is the plugin's class loader (the NodeManager's aux-service
     * loader): Pekko loads its configuration and extensions through it, not the thread's context loader.
     */
    public static CoordinatorClient start(ClientSettings settings, NodeInfo node, ReportSource source,
            CoordinatorListener listener, ClassLoader classLoader) {
        CoordinatorClient c = new CoordinatorClient(settings, node, source, listener, classLoader);
        synchronized (c) {
            c.system = c.newSystem();
        }
        long period = Math.max(100, settings.systemRestartMillis() / 10);
        c.watchdog.scheduleWithFixedDelay(c::watch, period, period, TimeUnit.MILLISECONDS);
        return c;
    }

    private ActorSystem<ClientCommand> newSystem() {
        Config config = PekkoSettings.remoting(settings.localHost(), settings.localPort(), settings.maxFrameBytes(),
                ConfigFactory.load(classLoader));
        return ActorSystem.create(ClientActor.create(settings, node, source, listener, mode, following),
                "courier-proxy",
                BootstrapSetup.create(config).withClassloader(classLoader));
    }

    /**
     * Watchdog thread: replaces an actor system that has been in FALLBACK too long, or that has followed a standby
     * for that long while the primary accepts connections again. The second case is the long-outage problem seen
     * from a standby: the association to a primary that was away for more than a few seconds stops delivering,
     * so the primary probes never arrive and the client would stay on the standby for good (found by the
     * coordinator chaos run: after the first long primary outage no proxy ever returned to the primary).
     * Never throws: an exception would cancel the periodic task for good, leaving the client without a watchdog.
     */
    private void watch() {
        try {
            watchOnce();
        } catch (RuntimeException e) {
            LOG.warn("node {}: coordinator client watchdog failed (trying again in its next period): {}",
                    node.nodeId(), e.toString(), e);
        }
    }

    private void watchOnce() {
        boolean probePrimary;
        synchronized (this) {
            long now = System.nanoTime();
            boolean onStandby = mode.get() == Mode.COORDINATED && following.get() != 0;
            if (mode.get() == Mode.COORDINATED && !onStandby) {
                lastOnPrimaryNanos = now;
            }
            probePrimary = !closed && onStandby
                    && now - lastOnPrimaryNanos >= TimeUnit.MILLISECONDS.toNanos(settings.systemRestartMillis());
        }
        if (probePrimary && primaryAcceptsConnections()) {
            synchronized (this) {
                lastOnPrimaryNanos = System.nanoTime();
            }
            LOG.info("node {}: following a standby while the primary {}:{} accepts connections again; starting a"
                    + " fresh client to return to it", node.nodeId(), settings.coordinatorHost(),
                    settings.coordinatorPort());
            replaceSystem();
            return;
        }
        synchronized (this) {
            long now = System.nanoTime();
            if (closed || mode.get() == Mode.COORDINATED) {
                lastCoordinatedNanos = now;
                return;
            }
            if (now - lastCoordinatedNanos < TimeUnit.MILLISECONDS.toNanos(settings.systemRestartMillis())) {
                return;
            }
            lastCoordinatedNanos = now;
        }
        LOG.info("node {}: no coordinator for {} ms; starting a fresh client to reach {}", node.nodeId(),
                settings.systemRestartMillis(), settings.coordinatorPaths());
        replaceSystem();
    }

    /** Whether a TCP connection to the primary's port succeeds within 500 ms (a coordinator listens there). */
    private boolean primaryAcceptsConnections() {
        try (java.net.Socket s = new java.net.Socket()) {
            s.connect(new java.net.InetSocketAddress(settings.coordinatorHost(), settings.coordinatorPort()), 500);
            return true;
        } catch (java.io.IOException e) {
            return false;
        }
    }

    /**
     * Watchdog thread: terminates the actor system and starts a fresh one, replaying the open coflows. Until the fresh
     * one registers, the client follows no coordinator: the mode becomes FALLBACK and the listener is told (the old
     * actor can no longer say so, and the fresh one starts in FALLBACK without a change to report), so the proxy
     * does not go on believing it is coordinated by a client that is gone (between the old actor's end and the fresh
     * one's start, so the listener still hears one call at a time). A system that does not stop in time is left
     * behind with a warning; the fresh one is started anyway (if it cannot bind yet, the next period retries).
     */
    private void replaceSystem() {
        ActorSystem<ClientCommand> old;
        List<CoflowRegistered> replay;
        synchronized (this) {
            if (closed) {
                return;
            }
            old = system;
            replay = new ArrayList<CoflowRegistered>(coflows.values());
        }
        boolean stopped = true;
        try {
            terminate(old);
        } catch (IllegalStateException e) {
            stopped = false; // its actor may still be running: leave the mode and the listener to it
            LOG.warn("node {}: {}; starting a fresh one anyway", node.nodeId(), e.getMessage());
        }
        if (stopped && mode.getAndSet(Mode.FALLBACK) != Mode.FALLBACK) {
            try {
                listener.onModeChanged(Mode.FALLBACK, "replacing the coordinator client");
            } catch (RuntimeException e) {
                LOG.warn("node {}: mode listener failed: {}", node.nodeId(), e.toString());
            }
        }
        synchronized (this) {
            if (closed) {
                return;
            }
            try {
                system = newSystem();
            } catch (RuntimeException e) {
                LOG.warn("node {}: could not start a fresh coordinator client (retrying in {} ms): {}", node.nodeId(),
                        settings.systemRestartMillis(), e.toString());
                return;
            }
            for (CoflowRegistered c : replay) {
                system.tell(new ClientActor.RegisterCoflow(c));
            }
        }
    }

    /** The current mode (as last reported to the listener). */
    public Mode mode() {
        return mode.get();
    }

    /**
     * Tells the coordinator a job's shuffle started on this node (idempotent; remembered and re-sent after a
     * coordinator restart). {@code weight}: the job's {@code courier.coflow.weight}, NaN when unset;
     * {@code priority}: the job priority's name or null.
     */
    public synchronized void registerCoflow(String jobId, double weight, String priority, long arrivalMillis) {
        CoflowRegistered c = new CoflowRegistered(jobId, weight, priority, arrivalMillis);
        if (!coflows.containsKey(jobId)) {
            coflows.put(jobId, c);
        }
        system.tell(new ClientActor.RegisterCoflow(c));
    }

    /** Tells the coordinator a job's shuffle is over on this node (idempotent). */
    public synchronized void completeCoflow(String jobId) {
        if (jobId == null || jobId.isEmpty()) {
            throw new IllegalArgumentException("job id must be a non-empty string");
        }
        coflows.remove(jobId);
        system.tell(new ClientActor.CompleteCoflow(jobId));
    }

    /**
     * Discovery: the proxy endpoint ({@code host:port}) of the node whose shuffle endpoint is given, empty when
     * no registered node has it; fails with a {@code TimeoutException} when the coordinator does not answer.
     */
    public CompletionStage<Optional<String>> lookupProxy(String shuffleEndpoint) {
        if (shuffleEndpoint == null || shuffleEndpoint.isEmpty()) {
            throw new IllegalArgumentException("shuffle endpoint must be a non-empty string");
        }
        CompletableFuture<Optional<String>> f = new CompletableFuture<Optional<String>>();
        synchronized (this) {
            system.tell(new ClientActor.Lookup(shuffleEndpoint, f));
        }
        return f;
    }

    /** Stops the watchdog and the client's actor system and waits (bounded) for them. */
    @Override
    public void close() {
        ActorSystem<ClientCommand> s;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            s = system;
        }
        watchdog.shutdownNow();
        try {
            watchdog.awaitTermination(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        terminate(s);
    }

    private static void terminate(ActorSystem<ClientCommand> s) {
        s.terminate();
        try {
            s.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("coordinator client did not stop within 30 s", e);
        }
    }
}
