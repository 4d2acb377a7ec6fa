package io.courier.coordinator.bench;

import com.typesafe.config.ConfigFactory;
import io.courier.coordinator.Coordinator;
import io.courier.coordinator.CoordinatorSettings;
import io.courier.coordinator.client.ClientSettings;
import io.courier.coordinator.client.CoordinatorClient;
import io.courier.coordinator.client.CoordinatorListener;
import io.courier.coordinator.client.Mode;
import io.courier.coordinator.http.StatusHttpServer;
import io.courier.coordinator.protocol.DecisionUpdate;
import io.courier.coordinator.protocol.FlowDecision;
import io.courier.coordinator.protocol.FlowReport;
import io.courier.coordinator.protocol.NodeInfo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A coordinator with its HTTP page and four in-process proxies moving two jobs' bytes at the decided rates,
 * for looking at (or screenshotting) the live page: bench/coordinator-ui-screenshot.sh. Not a test.
 * Arguments: seconds to run (default 60), scheduler (default sincronia). Prints "URL http://…/" when ready.
 */
public final class StatusPageDemo {
    private StatusPageDemo() {
    }

    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 60;
        String scheduler = args.length > 1 ? args[1] : "sincronia";
        Map<String, Object> m = new HashMap<String, Object>();
        m.put("courier.coordinator.port", 0);
        m.put("courier.coordinator.http.port", 0);
        m.put("courier.coordinator.scheduler.name", scheduler);
        m.put("courier.coordinator.default-capacity.up", 50_000_000);
        m.put("courier.coordinator.default-capacity.down", 50_000_000);
        CoordinatorSettings settings = CoordinatorSettings.from(ConfigFactory.parseMap(m).withFallback(ConfigFactory.load()));
        final Coordinator coordinator = Coordinator.start(settings, ConfigFactory.load(), StatusPageDemo.class.getClassLoader());
        StatusHttpServer http = StatusHttpServer.start("127.0.0.1", 0, () -> coordinator.status(Duration.ofSeconds(5)));
        ClientSettings cs = ClientSettings.builder("127.0.0.1", coordinator.port()).reportIntervalMillis(10).build();
        List<CoordinatorClient> clients = new ArrayList<CoordinatorClient>();
        String[] jobs = {"job_1700000000000_0001", "job_1700000000000_0002"};
        long[] sizes = {4_000_000_000L, 600_000_000L};
        for (int n = 1; n <= 4; n++) {
            final String self = "nm-" + n;
            final Map<String, double[]> flows = new ConcurrentHashMap<String, double[]>(); // key -> {sent, size, rate}
            for (int j = 0; j < jobs.length; j++) {
                for (int d = 1; d <= 4; d++) {
                    if (d != n) {
                        flows.put(jobs[j] + " nm-" + d, new double[] {0, sizes[j] / 12.0, 0});
                    }
                }
            }
            final long[] last = {System.nanoTime()};
            CoordinatorClient c = CoordinatorClient.start(cs, new NodeInfo(self, self + ":13562", self + ":13563", 0, 0),
                    () -> {
                        long now = System.nanoTime();
                        double dt = (now - last[0]) / 1e9;
                        last[0] = now;
                        List<FlowReport> rows = new ArrayList<FlowReport>();
                        for (Map.Entry<String, double[]> e : flows.entrySet()) {
                            double[] f = e.getValue();
                            f[0] = Math.min(f[1], f[0] + f[2] * dt);
                            String[] k = e.getKey().split(" ");
                            rows.add(new FlowReport(k[0], self, k[1], (long) f[0], (long) (f[1] - f[0]), (long) f[1],
                                    f[2], f[0] >= f[1]));
                        }
                        return rows;
                    },
                    new CoordinatorListener() {
                        @Override
                        public void onDecisions(DecisionUpdate update) {
                            for (FlowDecision d : update.flows()) {
                                double[] f = d.srcNode().equals(self) ? flows.get(d.jobId() + " " + d.dstNode()) : null;
                                if (f != null) {
                                    f[2] = d.rate();
                                }
                            }
                        }

                        @Override
                        public void onModeChanged(Mode mode, String reason) {
                        }
                    }, StatusPageDemo.class.getClassLoader());
            c.registerCoflow(jobs[0], Double.NaN, "NORMAL", System.currentTimeMillis());
            c.registerCoflow(jobs[1], Double.NaN, "HIGH", System.currentTimeMillis());
            clients.add(c);
        }
        Thread.sleep(1500);
        System.out.println("URL http://127.0.0.1:" + http.port() + "/");
        System.out.flush();
        Thread.sleep(seconds * 1000L);
        for (CoordinatorClient c : clients) {
            c.close();
        }
        http.close();
        coordinator.close();
        System.exit(0);
    }
}
