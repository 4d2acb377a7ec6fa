package io.courier.scheduler.stream;

import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/**
 * The bytes each receiving host of one coflow had received at an epoch ({@code x_{c,r}}): what the Information-Relay
 * of the next epoch reads. Hosts are kept in the order the coflow's flows first reach them (its
 * {@link SubCoflowShapes.Shape}'s receiver order), so a next epoch over the same flows reads them by index; the relay
 * is stored per (coflow, receiver) at every epoch, and boxed maps of hosts spent more than the formula. Immutable.
 */
final class ReceivedBytes {
    private final int[] hosts;
    private final double[] bytes;
    /** Bytes per second at the decided rates, when these bytes are to be carried forward ({@link #after}); else null. */
    private final double[] perSecond;

    ReceivedBytes(int[] hosts, double[] bytes) {
        this(hosts, bytes, null);
    }

    ReceivedBytes(int[] hosts, double[] bytes, double[] perSecond) {
        this.hosts = hosts;
        this.bytes = bytes;
        this.perSecond = perSecond;
    }

    /** The bytes received {@code dt} seconds later at the rates given (an epoch the driver skipped). */
    ReceivedBytes after(double dt) {
        double[] later = new double[bytes.length];
        for (int r = 0; r < later.length; r++) {
            later[r] = bytes[r] + perSecond[r] * dt;
        }
        return new ReceivedBytes(hosts, later);
    }

    /**
     * The bytes of each host of {@code order}, NaN for a host that received nothing here: by index when the order is
     * this one (the usual case, the same flows as an epoch before), else by looking each host up.
     */
    double[] inOrderOf(int[] order) {
        if (Arrays.equals(order, hosts)) {
            return bytes.clone();
        }
        Map<Integer, Double> byHost = asMap();
        double[] out = new double[order.length];
        for (int r = 0; r < order.length; r++) {
            Double v = byHost.get(order[r]);
            out[r] = v == null ? Double.NaN : v;
        }
        return out;
    }

    /** Bytes by receiving host. */
    Map<Integer, Double> asMap() {
        Map<Integer, Double> out = new HashMap<>(hosts.length * 2);
        for (int r = 0; r < hosts.length; r++) {
            out.put(hosts[r], bytes[r]);
        }
        return Collections.unmodifiableMap(out);
    }
}
