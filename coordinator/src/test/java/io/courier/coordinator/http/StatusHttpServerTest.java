package io.courier.coordinator.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.courier.coordinator.Coordinator;
import io.courier.coordinator.TestSupport;
import io.courier.coordinator.protocol.ClientCommand;
import io.courier.coordinator.protocol.CoflowRegistered;
import io.courier.coordinator.protocol.CoordinatorCommand;
import io.courier.coordinator.protocol.DecisionUpdate;
import io.courier.coordinator.protocol.EpochReport;
import io.courier.coordinator.protocol.FlowReport;
import io.courier.coordinator.protocol.NodeInfo;
import io.courier.coordinator.protocol.NodeRegistered;
import io.courier.coordinator.protocol.RegisterNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorRefResolver;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The HTTP endpoints over a real coordinator with two nodes and one coflow (sincronia: order-based). */
@Timeout(60)
class StatusHttpServerTest {
    private static Coordinator coordinator;
    private static StatusHttpServer http;
    private static ActorTestKit proxies;

    @BeforeAll
    static void start() throws Exception {
        coordinator = TestSupport.coordinator(0, 20, "sincronia");
        http = StatusHttpServer.start("127.0.0.1", 0, () -> coordinator.status(Duration.ofSeconds(5)));
        proxies = ActorTestKit.create("proxies", TestSupport.remoteConfig());
        ActorRef<CoordinatorCommand> entry = ActorRefResolver.get(proxies.system())
                .resolveActorRef(coordinator.entryPath());
        TestProbe<ClientCommand> a = proxies.createTestProbe();
        TestProbe<ClientCommand> b = proxies.createTestProbe();
        entry.tell(new RegisterNode(new NodeInfo("a", "a:13562", "a:13563", 0, 0), a.getRef()));
        entry.tell(new RegisterNode(new NodeInfo("b", "b:13562", "b:13563", 0, 0), b.getRef()));
        a.expectMessageClass(NodeRegistered.class, Duration.ofSeconds(10));
        b.expectMessageClass(NodeRegistered.class, Duration.ofSeconds(10));
        entry.tell(new CoflowRegistered("job_\"1\"", 2.0, "", 0));
        // Report until the coordinator has the coflow and has decided on the flow.
        long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (System.nanoTime() < end) {
            entry.tell(new EpochReport("a", 1, Arrays.asList(new FlowReport("job_\"1\"", "a", "b", 300, 700, 1000, 5.0,
                    false)), a.getRef()));
            ClientCommand m = a.receiveMessage(Duration.ofSeconds(10));
            if (m instanceof DecisionUpdate && !((DecisionUpdate) m).flows().isEmpty()) {
                return;
            }
        }
        throw new AssertionError("no decision within 10 s");
    }

    @AfterAll
    static void stop() {
        http.close();
        proxies.shutdownTestKit();
        coordinator.close();
    }

    @Test
    void statusJsonHasNodesCoflowsOrderAndDecisions() throws Exception {
        Response r = get("/api/v1/status");
        assertEquals(200, r.code);
        assertTrue(r.type.startsWith("application/json"), r.type);
        JsonNode s = new ObjectMapper().readTree(r.body);
        assertEquals("sincronia", s.get("scheduler").asText());
        assertEquals("ORDER_BASED", s.get("schedulerType").asText());
        assertEquals(20, s.get("epochMillis").asInt());
        assertEquals(2, s.get("nodes").size());
        assertEquals(1, s.get("coflows").size());
        JsonNode c = s.get("coflows").get(0);
        assertEquals("job_\"1\"", c.get("jobId").asText());
        assertEquals(2.0, c.get("weight").asDouble(), 0.0);
        assertEquals(0, c.get("rank").asInt());
        assertEquals(300, c.get("bytesSent").asLong());
        assertEquals(700, c.get("bytesPending").asLong());
        JsonNode f = s.get("flows").get(0);
        assertEquals("a", f.get("src").asText());
        assertEquals("b", f.get("dst").asText());
        assertEquals(0, f.get("priority").asInt());
        assertEquals(1_000_000.0, f.get("rateBytesPerSecond").asDouble(), 1e-6, "the only flow gets all of up(a)");
        assertTrue(s.get("epochs").get("decisions").asLong() > 0);
        assertTrue(s.get("epochs").get("lastDecisionMillis").asDouble() > 0);
    }

    @Test
    void metricsArePrometheusText() throws Exception {
        Response r = get("/metrics");
        assertEquals(200, r.code);
        assertTrue(r.type.startsWith("text/plain; version=0.0.4"), r.type);
        assertTrue(r.body.contains("# TYPE courier_coordinator_nodes gauge\ncourier_coordinator_nodes 2\n"), r.body);
        assertTrue(r.body.contains("courier_coflow_rank{job=\"job_\\\"1\\\"\"} 0\n"), r.body);
        assertTrue(r.body.contains("courier_coordinator_decisions_total "), r.body);
    }

    @Test
    void pageAndErrors() throws Exception {
        Response page = get("/");
        assertEquals(200, page.code);
        assertTrue(page.body.contains("api/v1/status"), "the page polls the JSON");
        assertEquals(404, get("/nothing").code);
        // The JDK server hands a context every path that starts with its own: only the exact paths are served.
        assertEquals(404, get("/metricsX").code);
        assertEquals(404, get("/api/v1/status/x").code);
        assertEquals(404, get("/index.html").code);
        HttpURLConnection c = (HttpURLConnection) new URL("http://127.0.0.1:" + http.port() + "/metrics").openConnection();
        c.setRequestMethod("POST");
        assertEquals(405, c.getResponseCode());
        c.disconnect();
    }

    static final class Response {
        final int code;
        final String type;
        final String body;

        Response(int code, String type, String body) {
            this.code = code;
            this.type = type;
            this.body = body;
        }
    }

    private static Response get(String path) throws IOException {
        HttpURLConnection c = (HttpURLConnection) new URL("http://127.0.0.1:" + http.port() + path).openConnection();
        c.setConnectTimeout(5000);
        c.setReadTimeout(10000);
        int code = c.getResponseCode();
        InputStream in = code < 400 ? c.getInputStream() : c.getErrorStream();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        if (in != null) {
            byte[] buf = new byte[8192];
            int n;
            while ((n = in.read(buf)) > 0) {
                out.write(buf, 0, n);
            }
            in.close();
        }
        String type = c.getContentType();
        c.disconnect();
        return new Response(code, type == null ? "" : type, new String(out.toByteArray(), StandardCharsets.UTF_8));
    }
}
