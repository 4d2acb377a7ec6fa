package io.courier.coordinator.actors;

import io.courier.coordinator.protocol.CoflowCompleted;
import io.courier.coordinator.protocol.CoflowRegistered;
import io.courier.coordinator.protocol.CoordinatorCommand;
import io.courier.coordinator.protocol.EpochReport;
import io.courier.coordinator.protocol.LookupProxy;
import io.courier.coordinator.protocol.NodeReport;
import io.courier.coordinator.protocol.RegisterNode;
import io.courier.scheduler.CoflowScheduler;
import java.util.Map;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.MailboxSelector;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * The coordinator's entry actor (the actor system's guardian, path {@code /user}): the one address proxies
 * send to. It owns the node registry, the coflow registry and the scheduling actor, and routes each message
 * to the one that handles it.
 */
public final class CoordinatorGuardian {
    private CoordinatorGuardian() {
    }

    /**
     * The scheduling actor's mailbox: control-aware, so that its epoch tick, table changes and status queries
     * (the {@link org.apache.pekko.dispatch.ControlMessage}s of {@link Internal}) are handled before the reports
     * queued ahead of them; at 1,000 proxies reporting every 10 ms a tick would otherwise wait for every report
     * that arrived before it.
     */
    static final String SCHEDULING_MAILBOX = "pekko.actor.mailbox.unbounded-control-aware-queue-based";

    /** The coordinator's actors with their parameters; the scheduler instance belongs to the scheduling actor. */
    public static Behavior<CoordinatorCommand> create(final CoflowScheduler scheduler, final String coordinatorId,
            final long epochMillis, final long defaultUp, final long defaultDown, final long nodeExpiryMillis,
            final Map<String, Double> priorityWeights) {
        return Behaviors.setup(ctx -> {
            final long startMillis = System.currentTimeMillis();
            final ActorRef<CoordinatorCommand> scheduling = ctx.spawn(
                    SchedulingActor.create(scheduler, coordinatorId, epochMillis, nodeExpiryMillis, ctx.getSelf()),
                    "scheduling", MailboxSelector.fromConfig(SCHEDULING_MAILBOX));
            final ActorRef<CoordinatorCommand> nodes = ctx.spawn(NodeRegistry.create(coordinatorId, epochMillis,
                    defaultUp, defaultDown, nodeExpiryMillis, scheduling), "nodes");
            final ActorRef<CoordinatorCommand> coflows = ctx.spawn(
                    CoflowRegistry.create(startMillis, priorityWeights, scheduling), "coflows");
            ctx.getLog().info("coordinator {} up: scheduler {} ({}), epoch {} ms", coordinatorId, scheduler.name(),
                    scheduler.type(), epochMillis);
            return Behaviors.receive(CoordinatorCommand.class)
                    .onMessage(EpochReport.class, m -> {
                        scheduling.tell(m);
                        return Behaviors.same();
                    })
                    .onMessage(NodeReport.class, m -> {
                        scheduling.tell(m);
                        return Behaviors.same();
                    })
                    .onMessage(RegisterNode.class, m -> {
                        nodes.tell(m);
                        return Behaviors.same();
                    })
                    .onMessage(LookupProxy.class, m -> {
                        nodes.tell(m);
                        return Behaviors.same();
                    })
                    .onMessage(Internal.NodesSeen.class, m -> {
                        nodes.tell(m);
                        return Behaviors.same();
                    })
                    .onMessage(CoflowRegistered.class, m -> {
                        coflows.tell(m);
                        return Behaviors.same();
                    })
                    .onMessage(CoflowCompleted.class, m -> {
                        coflows.tell(m);
                        return Behaviors.same();
                    })
                    .onMessage(Internal.GetStatus.class, m -> {
                        scheduling.tell(m);
                        return Behaviors.same();
                    })
                    .build();
        });
    }
}
