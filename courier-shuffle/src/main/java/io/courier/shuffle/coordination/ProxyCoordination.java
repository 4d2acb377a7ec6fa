package io.courier.shuffle.coordination;

import io.courier.coordinator.client.ClientSettings;
import io.courier.coordinator.client.CoordinatorClient;
import io.courier.coordinator.client.CoordinatorListener;
import io.courier.coordinator.client.Mode;
import io.courier.coordinator.protocol.DecisionUpdate;
import io.courier.coordinator.protocol.NodeInfo;
import io.courier.shuffle.proxy.CourierProxy;
import io.courier.shuffle.proxy.schedule.ReceivePlan;
import io.courier.shuffle.proxy.schedule.SendScheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.Closeable;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The proxy side of the coordinator (DESIGN.md "The coordinator"): registers this node with the coordinator,
 * reports what the proxy serves every epoch, and installs the coordinator's decisions in the proxy's
 * {@link SendScheduler} (and their receiving half, the ranks or rates of the flows this node fetches, as the
 * proxy's {@link ReceivePlan}); when no coordinator is configured, none answers, or it goes silent, the proxy schedules
 * on its own with Stream's decentralized priorities ({@link StreamFallback}) and returns to the coordinator's
 * decisions as soon as the client is {@link Mode#COORDINATED} again. Scheduling is advice: nothing here can fail
 * or hold a fetch — a client that cannot start leaves the proxy in fallback mode, and every plan keeps every
 * open stream served (by the SendScheduler's own rules).
 *
 * <p>Threads. The owner (the NodeManager's {@code CourierShuffleHandler}) calls {@link #start} after the proxy has
 * started and {@link #close()} before the proxy stops, from its service thread; {@link #jobFinished} from the
 * aux-service event thread. Netty event loops call the ledger's new-job hook (coflow registration, a
 * non-blocking tell). The client's actor thread calls the {@link LedgerReports} report source and the listener,
 * which only hands work over. Every change of the send plan — coordinator decisions, mode changes, fallback
 * epochs — runs on this object's single planning thread ({@code courier-coordination}), so plans are applied in
 * order and {@link FlowIds} and {@link StreamFallback} need no locks.
 */
public final class ProxyCoordination implements Closeable {
    private static final Logger LOG = LoggerFactory.getLogger(ProxyCoordination.class);

    private final CoordinationConfig config;
    private final String self;
    private final SendScheduler scheduler;
    /** Installs the receiving half of a decision in the proxy's fetching side ({@code CourierProxy}). */
    private final Consumer<ReceivePlan> receiver;
    private final ScheduledExecutorService planner;
    private final FlowIds ids = new FlowIds();
    private final StreamFallback fallback = new StreamFallback();
    private final DecisionTranslator translator;
    private final Set<String> registeredJobs = ConcurrentHashMap.newKeySet();
    private final CoflowHint.Source hints;
    private volatile CoordinatorClient client;
    private volatile Mode mode = Mode.FALLBACK;
    /** Planning thread only: the plan last installed; null when the next plan must be installed whatever it is. */
    private SenderPlan applied;

    private ProxyCoordination(CoordinationConfig config, String self, SendScheduler scheduler,
            Consumer<ReceivePlan> receiver, CoflowHint.Source hints) {
        this.config = config;
        this.receiver = receiver;
        this.hints = hints;
        this.self = self;
        this.scheduler = scheduler;
        this.translator = new DecisionTranslator(self);
        this.planner = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "courier-coordination " + self);
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Starts coordination for a started proxy. {@code shuffleEndpoint}: {@code host:port} of the node's
     * ShuffleHandler (how reducers name the node). Never throws for coordinator trouble: the proxy then runs the
     * fallback.
     */
    public static ProxyCoordination start(CoordinationConfig config, CourierProxy proxy, String shuffleEndpoint) {
        return start(config, proxy, shuffleEndpoint, job -> CoflowHint.NONE);
    }

    /**
     * As {@link #start(CoordinationConfig, CourierProxy, String)}; each job's coflow is registered with the weight
     * and priority {@code hints} finds for it (asked once per job, on the planning thread).
     */
    public static ProxyCoordination start(CoordinationConfig config, CourierProxy proxy, String shuffleEndpoint,
            CoflowHint.Source hints) {
        String self = proxy.nodeId();
        ProxyCoordination c = new ProxyCoordination(config, self, proxy.scheduler(), proxy::applyReceivePlan,
                hints);
        c.begin(proxy, shuffleEndpoint);
        return c;
    }

    private void begin(CourierProxy proxy, String shuffleEndpoint) {
        if (config.coordinated()) {
            String host = config.clientHost() != null ? config.clientHost() : proxy.config().host();
            try {
                ClientSettings.Builder b = ClientSettings.builder(config.coordinatorHost(), config.coordinatorPort())
                        .local(host, config.clientPort()).reportIntervalMillis(config.reportIntervalMillis())
                        .ackTimeoutMillis(config.ackTimeoutMillis()).registerRetryMillis(config.registerRetryMillis())
                        .primaryProbeMillis(config.primaryProbeMillis())
                        .systemRestartMillis(config.clientRestartMillis())
                        .reportTolerance(config.reportTolerance()).reportHeartbeatMillis(config.reportHeartbeatMillis());
                for (CoordinationConfig.Endpoint e : config.standbys()) {
                    b.standby(e.host(), e.port());
                }
                ClientSettings settings = b.build();
                NodeInfo node = new NodeInfo(self, shuffleEndpoint, self, config.capacityBytesPerSecond(),
                        config.capacityBytesPerSecond());
                client = CoordinatorClient.start(settings, node,
                        new LedgerReports(self, scheduler.ledger(), System::nanoTime), new Listener(),
                        ProxyCoordination.class.getClassLoader());
                LOG.info("Courier proxy {}: coordinator client started towards {} (client at {}:{}); scheduling "
                        + "decentralized (Stream) until the coordinator answers", self, settings.coordinatorPaths(),
                        host, config.clientPort());
            } catch (RuntimeException | LinkageError e) {
                client = null;
                LOG.error("Courier proxy {}: could not start the coordinator client for {}:{}; scheduling "
                        + "decentralized (Stream) only: {}", self, config.coordinatorHost(), config.coordinatorPort(),
                        e.toString(), e);
            }
        } else {
            LOG.info("Courier proxy {}: no coordinator configured ({}); scheduling decentralized (Stream)", self,
                    CoordinationConfig.ADDRESS);
        }
        scheduler.ledger().onNewJob(this::jobSeen);
        for (String job : scheduler.ledger().jobs()) {
            jobSeen(job);
        }
        planner.scheduleWithFixedDelay(this::fallbackEpoch, config.fallbackEpochMillis(),
                config.fallbackEpochMillis(), TimeUnit.MILLISECONDS);
    }

    /** Whether the proxy follows the coordinator now ({@link Mode#FALLBACK} when none is configured). */
    public Mode mode() {
        return mode;
    }

    /** Whether a coordinator client runs (configured and started). */
    public boolean clientRunning() {
        return client != null;
    }

    /** This node's id towards the coordinator: the proxy's {@code host:port}. */
    public String nodeId() {
        return self;
    }

    /** The job ended on this node: its coflow completes (idempotent). Any thread. */
    public void jobFinished(String job) {
        // On the planning thread, after a registration of the job that may still be queued there.
        onPlanner(() -> {
            CoordinatorClient c = client;
            if (registeredJobs.remove(job) && c != null) {
                c.completeCoflow(job);
            }
            ids.forgetJob(job); // counted in ids.forgets(): the next fallback epoch recomputes
        });
    }

    /**
     * Event loop of the connection that served the job's first stream here: the registration, which reads the
     * job's hint (a file), goes to the planning thread.
     */
    private void jobSeen(String job) {
        final long arrival = System.currentTimeMillis();
        onPlanner(() -> {
            CoordinatorClient c = client;
            if (c != null && registeredJobs.add(job)) {
                CoflowHint hint = hints.hintFor(job);
                LOG.debug("Courier proxy {}: coflow of {} registered with {}", self, job, hint);
                c.registerCoflow(job, hint.weight(), hint.priority(), arrival);
            }
        });
    }

    // ---- planning thread --------------------------------------------------------------------------------

    private void fallbackEpoch() {
        try {
            // Stream's state is kept current in both modes, so a fallback starts from warm levels. An epoch in
            // which nothing changed returns the previous plan without reading the ledger (StreamFallback.epoch).
            SenderPlan p = fallback.epoch(scheduler.ledger(), ids, System.nanoTime());
            if (mode == Mode.FALLBACK) {
                install(p);
            }
        } catch (RuntimeException e) {
            LOG.warn("Courier proxy {}: decentralized scheduling epoch failed; the previous plan stays: {}", self,
                    e.toString(), e);
        }
    }

    private void install(SenderPlan p) {
        if (!p.asksSameAs(applied)) {
            applied = p;
            p.applyTo(scheduler);
            LOG.debug("Courier proxy {} ({}): plan {}", self, mode, p);
        }
    }

    private void onDecision(DecisionUpdate u) {
        if (mode != Mode.COORDINATED) {
            return;
        }
        try {
            install(translator.translate(u, ids));
            receiver.accept(translator.receivePlan(u));
        } catch (RuntimeException e) {
            LOG.warn("Courier proxy {}: could not apply coordinator decision of epoch {}; the previous plan stays:"
                    + " {}", self, u.epoch(), e.toString(), e);
        }
    }

    private void onMode(Mode m) {
        mode = m;
        applied = null; // whatever comes next (the coordinator's first decision or a fallback plan) is installed
        if (m == Mode.FALLBACK) {
            // Stream's priorities are the senders' own (each from its ledger); the receiver has none: every job alike.
            try {
                receiver.accept(ReceivePlan.NONE);
            } catch (RuntimeException e) {
                LOG.warn("Courier proxy {}: could not clear the receive plan: {}", self, e.toString());
            }
            fallbackEpoch();
        }
    }

    private void onPlanner(Runnable r) {
        try {
            planner.execute(r);
        } catch (RejectedExecutionException e) {
            // closed: nothing left to plan
        }
    }

    /** Called on the coordinator client's actor thread; hands everything to the planning thread. */
    private final class Listener implements CoordinatorListener {
        @Override
        public void onDecisions(DecisionUpdate update) {
            onPlanner(() -> onDecision(update));
        }

        @Override
        public void onModeChanged(Mode m, String reason) {
            LOG.info("Courier proxy {}: {} ({})", self, m, reason);
            onPlanner(() -> onMode(m));
        }
    }

    /** Stops the client (bounded) and the planning thread; the send plan in force stays. Idempotent. */
    @Override
    public void close() {
        scheduler.ledger().onNewJob(null);
        CoordinatorClient c = client;
        client = null;
        try {
            if (c != null) {
                c.close();
            }
        } catch (RuntimeException e) {
            LOG.warn("Courier proxy {}: coordinator client did not stop cleanly: {}", self, e.toString());
        } finally {
            planner.shutdownNow();
            try {
                planner.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
