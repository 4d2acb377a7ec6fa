package io.courier.shuffle.proxy.schedule;

import io.courier.scheduler.planning.PlanningMode;

import java.util.Collections;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * An immutable snapshot of the sender's schedule: a {@link PeerPlan} per peer and a {@link StreamClass} per
 * (job, peer). The classes are also kept per peer, so two plans can be compared peer by peer
 * ({@link #peersChangedSince}): a connection is told of a new plan only when what it reads from it changed.
 */
public final class SendPlan {
    /** The plan before any stream or decision exists. */
    public static final SendPlan EMPTY = new SendPlan(PlanningMode.NONE, Collections.<String, PeerPlan>emptyMap(),
            Collections.<String, StreamClass>emptyMap(), Collections.<String, Map<String, StreamClass>>emptyMap());

    private final PlanningMode mode;
    private final Map<String, PeerPlan> peers;
    /** By {@link #key} of job and peer. */
    private final Map<String, StreamClass> classes;
    /** The same classes by peer, then by key; every peer here is in {@link #peers}. */
    private final Map<String, Map<String, StreamClass>> classesByPeer;

    /**
     * Takes the maps as they are (the scheduler builds fresh ones for every plan and never touches them again):
     * copying them cost a second set of maps per stream start and end.
     */
    SendPlan(PlanningMode mode, Map<String, PeerPlan> peers, Map<String, StreamClass> classes,
            Map<String, Map<String, StreamClass>> classesByPeer) {
        this.mode = mode;
        this.peers = Collections.unmodifiableMap(peers);
        this.classes = Collections.unmodifiableMap(classes);
        this.classesByPeer = Collections.unmodifiableMap(classesByPeer);
    }

    static String key(String job, String peer) {
        return job + "\u0000" + peer;
    }

    public PlanningMode mode() {
        return mode;
    }

    public PeerPlan peer(String peer) {
        PeerPlan p = peers.get(peer);
        return p == null ? PeerPlan.UNPLANNED : p;
    }

    public StreamClass classOf(String job, String peer) {
        return classOf(key(job, peer));
    }

    /** The class of the flow {@code flowKey} ({@link SendScheduler#flowKey}): no key is built per lookup. */
    public StreamClass classOf(String flowKey) {
        StreamClass c = classes.get(flowKey);
        return c == null ? StreamClass.BACKGROUND : c;
    }

    /**
     * The peers for which this plan differs from {@code before} in what a connection to them reads: the
     * {@link #peer} plan or the class of any of the peer's flows. Peers planned in neither are the same in both
     * (unplanned, every flow in the background).
     */
    Set<String> peersChangedSince(SendPlan before) {
        Set<String> changed = new HashSet<>();
        for (String p : before.peers.keySet()) {
            if (!samePeer(before, p)) {
                changed.add(p);
            }
        }
        for (String p : peers.keySet()) {
            if (!before.peers.containsKey(p) && !samePeer(before, p)) {
                changed.add(p);
            }
        }
        return changed;
    }

    private boolean samePeer(SendPlan other, String p) {
        return peer(p).equals(other.peer(p)) && classesOf(p).equals(other.classesOf(p));
    }

    private Map<String, StreamClass> classesOf(String p) {
        Map<String, StreamClass> m = classesByPeer.get(p);
        return m == null ? Collections.<String, StreamClass>emptyMap() : m;
    }

    @Override
    public String toString() {
        return "SendPlan(" + mode + ", peers=" + peers + ")";
    }
}
