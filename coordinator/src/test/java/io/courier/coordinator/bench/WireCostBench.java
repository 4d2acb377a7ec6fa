package io.courier.coordinator.bench;

import com.typesafe.config.ConfigFactory;
import io.courier.coordinator.PekkoSettings;
import io.courier.coordinator.protocol.ClientCommand;
import io.courier.coordinator.protocol.DecisionUpdate;
import io.courier.coordinator.protocol.EpochReport;
import io.courier.coordinator.protocol.FlowDecision;
import io.courier.coordinator.protocol.FlowReport;
import io.courier.coordinator.protocol.NodeReport;
import io.courier.coordinator.protocol.ReportAck;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;
import org.apache.pekko.actor.BootstrapSetup;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorRefResolver;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.serialization.Serialization;
import org.apache.pekko.serialization.SerializationExtension;
import org.apache.pekko.serialization.Serializer;

/**
 * What one coordinator message costs to encode and decode, and how large it is (a benchmark, NOT a test): the
 * scale benchmark's messages ({@link ScaleWorkload}, 1,000 nodes, 100 coflows × 3 × 3 by default) through the
 * serializer Pekko actually uses in an Artery actor system (our Kryo serializer, with its actor-reference
 * resolution), on one thread, CPU time per message. Compares the report as main sends it ({@link EpochReport},
 * with the reply reference) with the compact {@link NodeReport}, and a decision update and an ack.
 *
 * <p>Arguments: nodes coflows senders receivers rounds (defaults 1000 100 3 3 200).
 */
public final class WireCostBench {
    private WireCostBench() {
    }

    public static void main(String[] args) throws Exception {
        int nodes = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        int coflows = args.length > 1 ? Integer.parseInt(args[1]) : 100;
        int senders = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        int receivers = args.length > 3 ? Integer.parseInt(args[3]) : 3;
        int rounds = args.length > 4 ? Integer.parseInt(args[4]) : 200;
        ScaleWorkload w = new ScaleWorkload(nodes, coflows, senders, receivers);
        ActorSystem<Void> system = ActorSystem.create(Behaviors.<Void>empty(), "courier-coordinator",
                BootstrapSetup.create(PekkoSettings.remoting("127.0.0.1", 0, 1 << 20, ConfigFactory.load())));
        try {
            Serialization ser = SerializationExtension.get(Adapter.toClassic(system));
            ActorRefResolver resolver = ActorRefResolver.get(system);
            List<Object> epochReports = new ArrayList<Object>();
            List<Object> nodeReports = new ArrayList<Object>();
            List<Object> updates = new ArrayList<Object>();
            TreeMap<Integer, Integer> rowsHistogram = new TreeMap<Integer, Integer>();
            long now = System.nanoTime();
            for (int i = 0; i < nodes; i++) {
                String id = ScaleWorkload.node(i);
                // The reply reference a proxy sends: its per-coordinator child in the proxies' system.
                ActorRef<ClientCommand> ref = resolver.resolveActorRef("pekko://proxies@127.0.0.1:41234/user/proxy-" + i
                        + "/via-0#" + (1_000_000_000L + i));
                List<FlowReport> rows = new ArrayList<FlowReport>();
                List<FlowDecision> decisions = new ArrayList<FlowDecision>();
                for (ScaleWorkload.SimFlow f : w.sentBy(i)) {
                    f.rate = 41_666_666.7;
                    f.advance(now);
                    rows.add(f.advance(now + 10_000_000L));
                    decisions.add(new FlowDecision(f.job, f.src, f.dst, 41_666_666.7, -1, -1));
                }
                Integer c = rowsHistogram.get(rows.size());
                rowsHistogram.put(rows.size(), c == null ? 1 : c + 1);
                epochReports.add(new EpochReport(id, 12_345, rows, ref));
                nodeReports.add(new NodeReport(id, 12_345, 100, rows, null));
                if (!decisions.isEmpty()) {
                    updates.add(new DecisionUpdate(12_345, "varys", false, decisions));
                }
            }
            List<Object> acks = Collections.<Object>singletonList(new ReportAck(12_345, Collections.<String>emptyList()));
            System.out.printf(Locale.ROOT, "workload: %d nodes, %d unified flows; report rows per node: %s%n", nodes,
                    w.flowCount, rowsHistogram);
            measure("EpochReport (main's report, with reply reference)", ser, epochReports, rounds);
            measure("NodeReport (compact, no reference)", ser, nodeReports, rounds);
            measure("DecisionUpdate (a sender's decisions)", ser, updates, rounds);
            measure("ReportAck", ser, acks, rounds * nodes);
        } finally {
            system.terminate();
        }
    }

    private static void measure(String what, Serialization ser, List<Object> messages, int rounds) throws Exception {
        Serializer s = ser.findSerializerFor(messages.get(0));
        List<byte[]> bytes = new ArrayList<byte[]>();
        long total = 0;
        for (Object m : messages) {
            byte[] b = s.toBinary(m);
            bytes.add(b);
            total += b.length;
        }
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        // Warm-up, then measure.
        for (int r = 0; r < Math.max(20, rounds / 4); r++) {
            for (int i = 0; i < messages.size(); i++) {
                s.fromBinary(s.toBinary(messages.get(i)), messages.get(i).getClass());
            }
        }
        long sink = 0;
        long e0 = mx.getCurrentThreadCpuTime();
        for (int r = 0; r < rounds; r++) {
            for (Object m : messages) {
                sink += s.toBinary(m).length;
            }
        }
        long e1 = mx.getCurrentThreadCpuTime();
        for (int r = 0; r < rounds; r++) {
            for (int i = 0; i < bytes.size(); i++) {
                sink += s.fromBinary(bytes.get(i), messages.get(i).getClass()).hashCode() & 1;
            }
        }
        long e2 = mx.getCurrentThreadCpuTime();
        long n = (long) rounds * messages.size();
        System.out.printf(Locale.ROOT, "%-52s %6.1f bytes mean; encode %6.2f us CPU, decode %6.2f us CPU per message"
                + " (%d messages; %d)%n", what, (double) total / messages.size(), (e1 - e0) / 1e3 / n,
                (e2 - e1) / 1e3 / n, n, sink & 1);
    }
}
