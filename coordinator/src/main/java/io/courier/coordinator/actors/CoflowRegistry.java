package io.courier.coordinator.actors;

import io.courier.coordinator.protocol.CoflowCompleted;
import io.courier.coordinator.protocol.CoflowRegistered;
import io.courier.coordinator.protocol.CoordinatorCommand;
import io.courier.scheduler.model.CoflowId;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * The registry of coflows: one per job shuffle. The first {@link CoflowRegistered} for a job creates it
 * (later ones — every proxy of the job sends one — are ignored); its weight is the job's
 * {@code courier.coflow.weight} when given, else the configured weight of its {@code mapreduce.job.priority},
 * else 1. {@link CoflowCompleted} removes it; a recently completed job is not re-created by a late
 * registration. Every change is pushed to the scheduling actor, which then schedules at once.
 */
public final class CoflowRegistry extends AbstractBehavior<CoordinatorCommand> {
    /** How many completed job ids are remembered against late registrations. */
    static final int COMPLETED_MEMORY = 10_000;

    private final long startMillis;
    private final Map<String, Double> priorityWeights;
    private final ActorRef<CoordinatorCommand> scheduling;
    private final Map<String, CoflowEntry> active = new LinkedHashMap<String, CoflowEntry>();
    private final RecentJobs completed = new RecentJobs(COMPLETED_MEMORY);
    private long nextId = 1;

    private CoflowRegistry(ActorContext<CoordinatorCommand> ctx, long startMillis, Map<String, Double> priorityWeights,
            ActorRef<CoordinatorCommand> scheduling) {
        super(ctx);
        this.startMillis = startMillis;
        this.priorityWeights = priorityWeights;
        this.scheduling = scheduling;
    }

    static Behavior<CoordinatorCommand> create(final long startMillis, final Map<String, Double> priorityWeights,
            final ActorRef<CoordinatorCommand> scheduling) {
        return Behaviors.setup(ctx -> new CoflowRegistry(ctx, startMillis, priorityWeights, scheduling));
    }

    @Override
    public Receive<CoordinatorCommand> createReceive() {
        return newReceiveBuilder()
                .onMessage(CoflowRegistered.class, this::onRegistered)
                .onMessage(CoflowCompleted.class, this::onCompleted)
                .build();
    }

    private Behavior<CoordinatorCommand> onRegistered(CoflowRegistered m) {
        if (active.containsKey(m.jobId()) || completed.contains(m.jobId())) {
            return this;
        }
        double weight;
        String source;
        if (!Double.isNaN(m.weight())) {
            weight = m.weight();
            source = "courier.coflow.weight";
        } else if (!m.priority().isEmpty() && priorityWeights.containsKey(m.priority().toUpperCase(Locale.ROOT))) {
            weight = priorityWeights.get(m.priority().toUpperCase(Locale.ROOT));
            source = "priority " + m.priority().toUpperCase(Locale.ROOT);
        } else {
            if (!m.priority().isEmpty()) {
                getContext().getLog().warn("job {}: unknown priority '{}' (known: {}); weight 1", m.jobId(),
                        m.priority(), priorityWeights.keySet());
            }
            weight = 1.0;
            source = "default";
        }
        long now = System.currentTimeMillis();
        // Proxies' clocks may run ahead of ours; an arrival is never later than when we hear of it.
        double arrival = Math.max(0.0, (Math.min(m.arrivalMillis(), now) - startMillis) / 1000.0);
        CoflowEntry e = new CoflowEntry(m.jobId(), CoflowId.of(nextId++), weight, source, arrival);
        active.put(m.jobId(), e);
        getContext().getLog().info("coflow {} registered for job {} (weight {} from {}, arrival {} s)", e.id(),
                m.jobId(), weight, source, arrival);
        publish();
        return this;
    }

    private Behavior<CoordinatorCommand> onCompleted(CoflowCompleted m) {
        CoflowEntry e = active.remove(m.jobId());
        completed.add(m.jobId());
        if (e != null) {
            getContext().getLog().info("coflow {} of job {} completed", e.id(), m.jobId());
            publish();
        }
        return this;
    }

    private void publish() {
        scheduling.tell(new Internal.CoflowsChanged(new CoflowTable(active)));
    }
}
