package io.courier.coordinator.client;

import io.courier.coordinator.protocol.ClientCommand;
import io.courier.coordinator.protocol.CoflowCompleted;
import io.courier.coordinator.protocol.CoflowRegistered;
import io.courier.coordinator.protocol.CoordinatorCommand;
import io.courier.coordinator.protocol.DecisionUpdate;
import io.courier.coordinator.protocol.FlowReport;
import io.courier.coordinator.protocol.LookupProxy;
import io.courier.coordinator.protocol.NodeInfo;
import io.courier.coordinator.protocol.NodeRegistered;
import io.courier.coordinator.protocol.NodeReport;
import io.courier.coordinator.protocol.NotRegistered;
import io.courier.coordinator.protocol.ProxyLocation;
import io.courier.coordinator.protocol.RegisterNode;
import io.courier.coordinator.protocol.ReportAck;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.pekko.actor.NoSerializationVerificationNeeded;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorRefResolver;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;

/**
 * One proxy's side of the coordinator protocol, as an actor (the guardian of {@link CoordinatorClient}'s
 * system, or one of many in the scale harness). It registers its node, evaluates the proxy's
 * {@link ReportSource} every report interval and sends what the coordinator cannot predict ({@link ReportGate},
 * as a {@link NodeReport}), hands decisions to the {@link CoordinatorListener}, and watches the
 * coordinator: any answer (ack, decision, registration) proves it alive; silence beyond the ack timeout
 * switches to {@link Mode#FALLBACK}, after which registration is retried until a coordinator — the same or
 * a restarted one — answers. Coflow registrations are remembered and re-sent after every (re-)registration
 * and whenever the coordinator says it does not know a job; a report carries only the rows of coflows this node
 * registered and has not completed.
 *
 * <p>High availability: with standby coordinators configured, each registration retry goes to the next
 * coordinator in turn, so a client whose coordinator died settles on whichever answers. While it follows a
 * standby it sends the primary a registration every primary-probe interval and goes back to it as soon as it
 * answers, so all proxies converge on the primary when it is up. Every coordinator answers through its own
 * child actor of this one ({@link Via}), so replies of a coordinator this client no longer follows (a standby
 * that still believes in the node until it expires it) are recognised and dropped.
 */
public final class ClientActor extends AbstractBehavior<ClientCommand> {
    private final ClientSettings settings;
    private final NodeInfo node;
    private final ReportSource source;
    private final CoordinatorListener listener;
    private final AtomicReference<Mode> modeView;
    private final List<ActorRef<CoordinatorCommand>> coordinators = new ArrayList<ActorRef<CoordinatorCommand>>();
    private final List<String> coordinatorPaths;
    /** Per coordinator, the child that tags its replies; coordinators reply to it, never to this actor. */
    private final List<ActorRef<ClientCommand>> replyTo = new ArrayList<ActorRef<ClientCommand>>();
    /** Index of the coordinator this client registers with and follows. */
    private int current;
    /** For the owning client's watchdog: the index of the coordinator this actor registered with last. */
    private java.util.concurrent.atomic.AtomicInteger followingView = new java.util.concurrent.atomic.AtomicInteger();
    private long lastProbeNanos;
    private final TimerScheduler<ClientCommand> timers;
    private final Map<String, CoflowRegistered> coflows = new LinkedHashMap<String, CoflowRegistered>();
    private final Set<String> pendingCompletions = new LinkedHashSet<String>();
    private final Map<String, List<CompletableFuture<Optional<String>>>> lookups =
            new HashMap<String, List<CompletableFuture<Optional<String>>>>();
    private Mode mode = Mode.FALLBACK;
    private boolean registered;
    private String coordinatorId;
    private long lastHeardNanos;
    private long lastRegisterNanos;
    private long epoch;
    private long lastDecisionEpoch = -1;
    /** Report suppression: which evaluations of the source are sent (all of them at tolerance 0). */
    private final ReportGate gate;
    /**
     * Silence after which a report carries this client's reply reference: a coordinator that restarted and no
     * longer knows the node can then answer "not registered" at once (else it cannot answer at all, and the client
     * would find out only at the ack timeout). Normally a node hears something at least every heartbeat.
     */
    private final long refAfterSilenceNanos;

    private ClientActor(ActorContext<ClientCommand> ctx, TimerScheduler<ClientCommand> timers, ClientSettings settings,
            NodeInfo node, ReportSource source, CoordinatorListener listener, AtomicReference<Mode> modeView) {
        super(ctx);
        this.settings = settings;
        this.node = node;
        this.source = source;
        this.listener = listener;
        this.modeView = modeView;
        this.timers = timers;
        this.coordinatorPaths = settings.coordinatorPaths();
        this.gate = new ReportGate(settings.reportTolerance(), settings.reportIntervalMillis() * 1_000_000L,
                settings.reportHeartbeatMillis() * 1_000_000L);
        this.refAfterSilenceNanos = Math.max(2 * settings.reportHeartbeatMillis(), settings.ackTimeoutMillis() / 4)
                * 1_000_000L;
        for (int i = 0; i < coordinatorPaths.size(); i++) {
            coordinators.add(ActorRefResolver.get(ctx.getSystem()).<CoordinatorCommand>resolveActorRef(
                    coordinatorPaths.get(i)));
            replyTo.add(ctx.spawn(Via.tagging(i, ctx.getSelf()), "via-" + i));
        }
        modeView.set(mode);
        sendRegister(System.nanoTime());
        timers.startTimerAtFixedRate("report", Tick.REPORT, Duration.ofMillis(settings.reportIntervalMillis()));
    }

    /** The behavior; {@code modeView} is updated on every mode change for readers on other threads. */
    public static Behavior<ClientCommand> create(final ClientSettings settings, final NodeInfo node,
            final ReportSource source, final CoordinatorListener listener, final AtomicReference<Mode> modeView) {
        return create(settings, node, source, listener, modeView, new java.util.concurrent.atomic.AtomicInteger());
    }

    /**
     * As above; {@code followingView} is set to the index (in {@link ClientSettings#coordinatorPaths()}) of the
     * coordinator this client registered with last: 0 is the primary, more a standby.
     */
    public static Behavior<ClientCommand> create(final ClientSettings settings, final NodeInfo node,
            final ReportSource source, final CoordinatorListener listener, final AtomicReference<Mode> modeView,
            final java.util.concurrent.atomic.AtomicInteger followingView) {
        return Behaviors.setup(ctx -> Behaviors.withTimers(timers -> {
            ClientActor a = new ClientActor(ctx, timers, settings, node, source, listener, modeView);
            a.followingView = followingView;
            return a;
        }));
    }

    // ---- local commands (from CoordinatorClient) --------------------------------------------------------

    enum Tick implements ClientCommand, NoSerializationVerificationNeeded {
        REPORT
    }

    /**
     * The command that registers a coflow with this client, for owners that spawn {@link ClientActor}s themselves
     * ({@link CoordinatorClient#registerCoflow} sends it to its own): the client sends it to the coordinator and
     * from then on reports the job's rows.
     */
    public static ClientCommand registration(CoflowRegistered coflow) {
        return new RegisterCoflow(coflow);
    }

    static final class RegisterCoflow implements ClientCommand, NoSerializationVerificationNeeded {
        final CoflowRegistered coflow;

        RegisterCoflow(CoflowRegistered coflow) {
            this.coflow = coflow;
        }
    }

    static final class CompleteCoflow implements ClientCommand, NoSerializationVerificationNeeded {
        final String jobId;

        CompleteCoflow(String jobId) {
            this.jobId = jobId;
        }
    }

    static final class Lookup implements ClientCommand, NoSerializationVerificationNeeded {
        final String shuffleEndpoint;
        final CompletableFuture<Optional<String>> result;

        Lookup(String shuffleEndpoint, CompletableFuture<Optional<String>> result) {
            this.shuffleEndpoint = shuffleEndpoint;
            this.result = result;
        }
    }

    static final class LookupExpired implements ClientCommand, NoSerializationVerificationNeeded {
        final String shuffleEndpoint;
        final CompletableFuture<Optional<String>> result;

        LookupExpired(String shuffleEndpoint, CompletableFuture<Optional<String>> result) {
            this.shuffleEndpoint = shuffleEndpoint;
            this.result = result;
        }
    }

    /** A message from coordinator {@code index}, as the child that it answers to passes it on. Local only. */
    static final class Via implements ClientCommand, NoSerializationVerificationNeeded {
        final int index;
        final ClientCommand message;

        Via(int index, ClientCommand message) {
            this.index = index;
            this.message = message;
        }

        /** The child behavior: every message it receives goes to {@code parent}, tagged with {@code index}. */
        static Behavior<ClientCommand> tagging(final int index, final ActorRef<ClientCommand> parent) {
            return Behaviors.receive(ClientCommand.class)
                    .onAnyMessage(m -> {
                        parent.tell(new Via(index, m));
                        return Behaviors.same();
                    })
                    .build();
        }
    }

    @Override
    public Receive<ClientCommand> createReceive() {
        return newReceiveBuilder()
                .onMessageEquals(Tick.REPORT, this::onTick)
                .onMessage(Via.class, this::onVia)
                .onMessage(RegisterCoflow.class, this::onRegisterCoflow)
                .onMessage(CompleteCoflow.class, this::onCompleteCoflow)
                .onMessage(Lookup.class, this::onLookup)
                .onMessage(LookupExpired.class, this::onLookupExpired)
                .build();
    }

    private Behavior<ClientCommand> onVia(Via v) {
        ClientCommand m = v.message;
        if (v.index != current) {
            if (v.index == 0 && m instanceof NodeRegistered) {
                // The primary answered a probe: follow it again (the standby expires this node by itself).
                getContext().getLog().info("node {}: the primary coordinator {} is back; leaving standby {}",
                        node.nodeId(), coordinatorPaths.get(0), coordinatorPaths.get(current));
                current = 0;
                return onRegistered((NodeRegistered) m);
            }
            return this; // a coordinator this client does not follow (any more)
        }
        if (m instanceof NodeRegistered) {
            return onRegistered((NodeRegistered) m);
        } else if (m instanceof NotRegistered) {
            return onNotRegistered((NotRegistered) m);
        } else if (m instanceof ReportAck) {
            return onAck((ReportAck) m);
        } else if (m instanceof DecisionUpdate) {
            return onDecision((DecisionUpdate) m);
        } else if (m instanceof ProxyLocation) {
            return onLocation((ProxyLocation) m);
        }
        getContext().getLog().warn("node {}: unexpected {} from coordinator {}", node.nodeId(),
                m.getClass().getSimpleName(), coordinatorPaths.get(v.index));
        return this;
    }

    private ActorRef<CoordinatorCommand> coordinator() {
        return coordinators.get(current);
    }

    private Behavior<ClientCommand> onTick() {
        long now = System.nanoTime();
        if (mode == Mode.COORDINATED && now - lastHeardNanos > settings.ackTimeoutMillis() * 1_000_000L) {
            registered = false;
            changeMode(Mode.FALLBACK, "no answer from the coordinator at " + coordinatorPaths.get(current) + " for "
                    + settings.ackTimeoutMillis() + " ms");
        }
        if (registered && current != 0 && now - lastProbeNanos >= settings.primaryProbeMillis() * 1_000_000L) {
            lastProbeNanos = now;
            coordinators.get(0).tell(new RegisterNode(node, replyTo.get(0)));
        }
        if (registered) {
            List<FlowReport> flows;
            try {
                flows = ofRegisteredCoflows(source.currentFlows());
            } catch (RuntimeException e) {
                getContext().getLog().warn("node {}: report source failed; reporting nothing this epoch: {}",
                        node.nodeId(), e.toString());
                flows = Collections.emptyList();
            }
            if (gate.offer(flows, now)) {
                ActorRef<ClientCommand> ref = now - lastHeardNanos > refAfterSilenceNanos ? replyTo.get(current) : null;
                long heartbeat = settings.reportTolerance() == 0 ? 0 : settings.reportHeartbeatMillis();
                coordinator().tell(new NodeReport(node.nodeId(), ++epoch, heartbeat, flows, ref));
            }
        } else if (now - lastRegisterNanos >= settings.registerRetryMillis() * 1_000_000L) {
            // No answer since the last attempt: try the next coordinator (the same one when there is no standby).
            current = (current + 1) % coordinators.size();
            sendRegister(now);
        }
        return this;
    }

    /**
     * Only rows of coflows this node registered and has not completed: the registration then always reaches the
     * coordinator before the rows (one sender, one receiver, in order; inside the coordinator it still passes
     * through the registry, which the scheduling actor tolerates once per job), and a job's last rows after its
     * completion are not sent at all. (The proxy registers a job on its planning thread while its connections
     * already serve it: without this every job's first report raced its registration.)
     */
    private List<FlowReport> ofRegisteredCoflows(List<FlowReport> rows) {
        List<FlowReport> kept = new ArrayList<FlowReport>(rows.size());
        for (FlowReport row : rows) {
            if (coflows.containsKey(row.jobId())) {
                kept.add(row);
            }
        }
        return kept;
    }

    private void sendRegister(long now) {
        lastRegisterNanos = now;
        lastProbeNanos = now;
        coordinator().tell(new RegisterNode(node, replyTo.get(current)));
    }

    private Behavior<ClientCommand> onRegistered(NodeRegistered m) {
        lastHeardNanos = System.nanoTime();
        if (!m.coordinatorId().equals(coordinatorId)) {
            lastDecisionEpoch = -1; // a new coordinator incarnation counts its epochs from scratch
        }
        coordinatorId = m.coordinatorId();
        registered = true;
        gate.reset(); // this coordinator may know nothing of our flows: report them at the next evaluation
        followingView.set(current);
        for (CoflowRegistered c : coflows.values()) {
            coordinator().tell(c);
        }
        for (String job : pendingCompletions) {
            coordinator().tell(new CoflowCompleted(job));
        }
        pendingCompletions.clear();
        changeMode(Mode.COORDINATED, "registered with coordinator " + m.coordinatorId() + " at "
                + coordinatorPaths.get(current));
        return this;
    }

    private Behavior<ClientCommand> onNotRegistered(NotRegistered m) {
        // The coordinator is alive but does not know us (it restarted or expired us): register again now.
        lastHeardNanos = System.nanoTime();
        registered = false;
        sendRegister(lastHeardNanos);
        return this;
    }

    private Behavior<ClientCommand> onAck(ReportAck m) {
        lastHeardNanos = System.nanoTime();
        for (String job : m.unknownJobs()) {
            CoflowRegistered c = coflows.get(job);
            if (c != null) {
                coordinator().tell(c);
            }
        }
        return this;
    }

    private Behavior<ClientCommand> onDecision(DecisionUpdate m) {
        lastHeardNanos = System.nanoTime();
        if (mode != Mode.COORDINATED || m.epoch() <= lastDecisionEpoch) {
            return this; // stale or reordered, or we are not (yet) following this coordinator
        }
        lastDecisionEpoch = m.epoch();
        try {
            listener.onDecisions(m);
        } catch (RuntimeException e) {
            getContext().getLog().warn("node {}: decision listener failed on epoch {}: {}", node.nodeId(), m.epoch(),
                    e.toString());
        }
        return this;
    }

    private Behavior<ClientCommand> onLocation(ProxyLocation m) {
        List<CompletableFuture<Optional<String>>> waiting = lookups.remove(m.shuffleEndpoint());
        if (waiting != null) {
            Optional<String> answer = m.found() ? Optional.of(m.proxyEndpoint()) : Optional.<String>empty();
            for (CompletableFuture<Optional<String>> f : waiting) {
                f.complete(answer);
            }
        }
        return this;
    }

    private Behavior<ClientCommand> onRegisterCoflow(RegisterCoflow m) {
        if (!coflows.containsKey(m.coflow.jobId())) {
            coflows.put(m.coflow.jobId(), m.coflow);
            pendingCompletions.remove(m.coflow.jobId());
            if (registered) {
                coordinator().tell(m.coflow);
            }
        }
        return this;
    }

    private Behavior<ClientCommand> onCompleteCoflow(CompleteCoflow m) {
        coflows.remove(m.jobId);
        if (registered) {
            coordinator().tell(new CoflowCompleted(m.jobId));
        } else {
            pendingCompletions.add(m.jobId);
        }
        return this;
    }

    private Behavior<ClientCommand> onLookup(Lookup m) {
        List<CompletableFuture<Optional<String>>> waiting = lookups.get(m.shuffleEndpoint);
        if (waiting == null) {
            waiting = new ArrayList<CompletableFuture<Optional<String>>>();
            lookups.put(m.shuffleEndpoint, waiting);
            coordinator().tell(new LookupProxy(m.shuffleEndpoint, replyTo.get(current)));
        }
        waiting.add(m.result);
        timers.startSingleTimer(m.result, new LookupExpired(m.shuffleEndpoint, m.result),
                Duration.ofMillis(settings.lookupTimeoutMillis()));
        return this;
    }

    private Behavior<ClientCommand> onLookupExpired(LookupExpired m) {
        List<CompletableFuture<Optional<String>>> waiting = lookups.get(m.shuffleEndpoint);
        if (waiting != null) {
            waiting.remove(m.result);
            if (waiting.isEmpty()) {
                lookups.remove(m.shuffleEndpoint);
            }
        }
        m.result.completeExceptionally(new java.util.concurrent.TimeoutException("no answer from the coordinator at "
                + coordinatorPaths.get(current) + " about " + m.shuffleEndpoint + " within "
                + settings.lookupTimeoutMillis() + " ms"));
        return this;
    }

    private void changeMode(Mode next, String reason) {
        if (next == mode) {
            return;
        }
        mode = next;
        modeView.set(next);
        if (next == Mode.FALLBACK) {
            getContext().getLog().warn("node {}: FALLBACK to decentralized scheduling: {}", node.nodeId(), reason);
        } else {
            getContext().getLog().info("node {}: COORDINATED: {}", node.nodeId(), reason);
        }
        try {
            listener.onModeChanged(next, reason);
        } catch (RuntimeException e) {
            getContext().getLog().warn("node {}: mode listener failed: {}", node.nodeId(), e.toString());
        }
    }
}
