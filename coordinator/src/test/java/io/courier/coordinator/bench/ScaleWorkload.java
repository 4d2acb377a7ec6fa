package io.courier.coordinator.bench;

import io.courier.coordinator.protocol.FlowReport;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * The scale benchmark's workload, the same in the coordinator's and the proxies' process (fixed seed): C coflows
 * ("job_0" …), each with S sender and R receiver nodes drawn at random among N ("nm-0" …), one unified flow per
 * (sender, receiver) pair with a size of 1–1000 GB (so none finishes). Immutable apart from the flows' progress.
 */
public final class ScaleWorkload {
    public final int proxies;
    public final List<String> jobs;
    private final Map<Integer, List<SimFlow>> bySender;
    public final int flowCount;

    public ScaleWorkload(int proxies, int coflows, int senders, int receivers) {
        this.proxies = proxies;
        Random rnd = new Random(42);
        Map<Integer, List<SimFlow>> out = new HashMap<Integer, List<SimFlow>>();
        List<String> js = new ArrayList<String>();
        int n = 0;
        for (int c = 0; c < coflows; c++) {
            String job = "job_" + c;
            js.add(job);
            int[] s = distinct(rnd, senders, proxies);
            int[] r = distinct(rnd, receivers, proxies);
            long size = (long) (1e9 * Math.pow(10, rnd.nextDouble() * 3));
            for (int si : s) {
                for (int ri : r) {
                    if (si == ri) {
                        continue;
                    }
                    List<SimFlow> l = out.get(si);
                    if (l == null) {
                        l = new ArrayList<SimFlow>();
                        out.put(si, l);
                    }
                    l.add(new SimFlow(job, node(si), node(ri), size));
                    n++;
                }
            }
        }
        this.jobs = Collections.unmodifiableList(js);
        this.bySender = out;
        this.flowCount = n;
    }

    /** The flows node i sends (empty when it only receives or is idle). */
    public List<SimFlow> sentBy(int i) {
        List<SimFlow> l = bySender.get(i);
        return l == null ? Collections.<SimFlow>emptyList() : l;
    }

    public static String node(int i) {
        return "nm-" + i;
    }

    private static int[] distinct(Random rnd, int k, int n) {
        int[] out = new int[Math.min(k, n)];
        Set<Integer> seen = new HashSet<Integer>();
        for (int i = 0; i < out.length;) {
            int x = rnd.nextInt(n);
            if (seen.add(x)) {
                out[i++] = x;
            }
        }
        return out;
    }

    /** One simulated sender-side flow; advanced on its client's actor thread, rate set from decisions. */
    public static final class SimFlow {
        public final String job;
        public final String src;
        public final String dst;
        final long size;
        public volatile double rate;
        private double sent;
        private long lastNanos;
        private double measured = -1;

        SimFlow(String job, String src, String dst, long size) {
            this.job = job;
            this.src = src;
            this.dst = dst;
            this.size = size;
        }

        public FlowReport advance(long now) {
            if (lastNanos != 0) {
                double dt = (now - lastNanos) / 1e9;
                double moved = Math.min(size - sent, rate * dt);
                sent += moved;
                measured = dt > 0 ? moved / dt : 0;
            }
            lastNanos = now;
            long s = (long) sent;
            return new FlowReport(job, src, dst, s, size - s, -1, measured < 0 ? -1 : measured, s >= size);
        }
    }
}
