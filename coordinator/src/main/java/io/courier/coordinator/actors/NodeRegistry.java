package io.courier.coordinator.actors;

import io.courier.coordinator.protocol.CoordinatorCommand;
import io.courier.coordinator.protocol.LookupProxy;
import io.courier.coordinator.protocol.NodeInfo;
import io.courier.coordinator.protocol.NodeRegistered;
import io.courier.coordinator.protocol.ProxyLocation;
import io.courier.coordinator.protocol.RegisterNode;
import java.time.Duration;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;

/**
 * The registry of proxies (nodes): registration and re-registration (a node id registering again replaces
 * its entry and reply address; another id claiming the same shuffle endpoint replaces the old id, which is
 * how a restarted NodeManager with a new id is handled), expiry of nodes silent for {@code node-expiry}, and
 * discovery ({@link LookupProxy}: the proxy endpoint of the node with a given shuffle endpoint). Every change
 * is pushed to the scheduling actor as a new {@link NodeTable}.
 */
public final class NodeRegistry extends AbstractBehavior<CoordinatorCommand> {
    private final String coordinatorId;
    private final long epochMillis;
    private final long defaultUp;
    private final long defaultDown;
    private final long expiryMillis;
    private final ActorRef<CoordinatorCommand> scheduling;
    private final TreeMap<String, NodeEntry> nodes = new TreeMap<String, NodeEntry>();
    private final Map<String, Long> lastSeenMillis = new HashMap<String, Long>();
    private long version;

    private NodeRegistry(ActorContext<CoordinatorCommand> ctx, TimerScheduler<CoordinatorCommand> timers,
            String coordinatorId, long epochMillis, long defaultUp, long defaultDown, long expiryMillis,
            ActorRef<CoordinatorCommand> scheduling) {
        super(ctx);
        this.coordinatorId = coordinatorId;
        this.epochMillis = epochMillis;
        this.defaultUp = defaultUp;
        this.defaultDown = defaultDown;
        this.expiryMillis = expiryMillis;
        this.scheduling = scheduling;
        long check = Math.max(50, expiryMillis / 4);
        timers.startTimerWithFixedDelay("expire", Internal.Tick.EXPIRE, Duration.ofMillis(check));
    }

    static Behavior<CoordinatorCommand> create(final String coordinatorId, final long epochMillis,
            final long defaultUp, final long defaultDown, final long expiryMillis,
            final ActorRef<CoordinatorCommand> scheduling) {
        return Behaviors.setup(ctx -> Behaviors.withTimers(timers -> new NodeRegistry(ctx, timers, coordinatorId,
                epochMillis, defaultUp, defaultDown, expiryMillis, scheduling)));
    }

    @Override
    public Receive<CoordinatorCommand> createReceive() {
        return newReceiveBuilder()
                .onMessage(RegisterNode.class, this::onRegister)
                .onMessage(LookupProxy.class, this::onLookup)
                .onMessage(Internal.NodesSeen.class, this::onSeen)
                .onMessageEquals(Internal.Tick.EXPIRE, this::onExpire)
                .build();
    }

    private Behavior<CoordinatorCommand> onRegister(RegisterNode m) {
        NodeInfo info = m.node();
        long now = System.currentTimeMillis();
        for (Iterator<NodeEntry> it = nodes.values().iterator(); it.hasNext();) {
            NodeEntry e = it.next();
            if (!e.nodeId().equals(info.nodeId()) && e.info().shuffleEndpoint().equals(info.shuffleEndpoint())) {
                getContext().getLog().warn("node {} registers shuffle endpoint {} that node {} had; replacing {}",
                        info.nodeId(), info.shuffleEndpoint(), e.nodeId(), e.nodeId());
                lastSeenMillis.remove(e.nodeId());
                it.remove();
            }
        }
        NodeEntry old = nodes.put(info.nodeId(), new NodeEntry(info, m.replyTo(), defaultUp, defaultDown, now));
        lastSeenMillis.put(info.nodeId(), now);
        if (old == null) {
            getContext().getLog().info("node registered: {}", info);
        } else {
            getContext().getLog().info("node re-registered: {}", info);
        }
        publish();
        m.replyTo().tell(new NodeRegistered(info.nodeId(), coordinatorId, epochMillis));
        return this;
    }

    private Behavior<CoordinatorCommand> onLookup(LookupProxy m) {
        String proxy = "";
        for (NodeEntry e : nodes.values()) {
            if (e.info().shuffleEndpoint().equals(m.shuffleEndpoint())) {
                proxy = e.info().proxyEndpoint();
                break;
            }
        }
        m.replyTo().tell(new ProxyLocation(m.shuffleEndpoint(), proxy));
        return this;
    }

    private Behavior<CoordinatorCommand> onSeen(Internal.NodesSeen m) {
        long now = System.currentTimeMillis();
        for (String n : m.nodes) {
            if (nodes.containsKey(n)) {
                lastSeenMillis.put(n, now);
            }
        }
        return this;
    }

    private Behavior<CoordinatorCommand> onExpire() {
        long now = System.currentTimeMillis();
        boolean changed = false;
        for (Iterator<Map.Entry<String, NodeEntry>> it = nodes.entrySet().iterator(); it.hasNext();) {
            Map.Entry<String, NodeEntry> e = it.next();
            Long seen = lastSeenMillis.get(e.getKey());
            if (seen == null || now - seen > expiryMillis) {
                getContext().getLog().warn("node {} expired: no report for more than {} ms", e.getKey(), expiryMillis);
                lastSeenMillis.remove(e.getKey());
                it.remove();
                changed = true;
            }
        }
        if (changed) {
            publish();
        }
        return this;
    }

    private void publish() {
        scheduling.tell(new Internal.NodesChanged(new NodeTable(nodes, ++version)));
    }
}
