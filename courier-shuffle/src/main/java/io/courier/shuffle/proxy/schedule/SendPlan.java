package io.courier.shuffle.proxy.schedule;

import io.courier.scheduler.planning.PlanningMode;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/**
 * An immutable snapshot of the sender's schedule: a {@link PeerPlan} per peer and a {@link StreamClass} per
 * (job, peer).
 */
public final class SendPlan {
    /** The plan before any stream or decision exists. */
    public static final SendPlan EMPTY = new SendPlan(PlanningMode.NONE, Collections.<String, PeerPlan>emptyMap(),
            Collections.<String, StreamClass>emptyMap());

    private final PlanningMode mode;
    private final Map<String, PeerPlan> peers;
    private final Map<String, StreamClass> classes;

    SendPlan(PlanningMode mode, Map<String, PeerPlan> peers, Map<String, StreamClass> classes) {
        this.mode = mode;
        this.peers = Collections.unmodifiableMap(new HashMap<>(peers));
        this.classes = Collections.unmodifiableMap(new HashMap<>(classes));
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
        StreamClass c = classes.get(key(job, peer));
        return c == null ? StreamClass.BACKGROUND : c;
    }

    @Override
    public String toString() {
        return "SendPlan(" + mode + ", peers=" + peers + ")";
    }
}
