package io.courier.coordinator.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.typesafe.config.ConfigFactory;
import io.courier.coordinator.Coordinator;
import io.courier.coordinator.TestSupport;
import io.courier.coordinator.protocol.ClientCommand;
import io.courier.coordinator.protocol.CoflowRegistered;
import io.courier.coordinator.protocol.CoordinatorCommand;
import io.courier.coordinator.protocol.EpochReport;
import io.courier.coordinator.protocol.FlowReport;
import io.courier.coordinator.protocol.NodeInfo;
import io.courier.coordinator.protocol.NodeRegistered;
import io.courier.coordinator.protocol.RegisterNode;
import java.awt.image.BufferedImage;
import java.io.File;
import java.io.IOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorRefResolver;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The live page ({@code GET /}) in headless Chromium (Debian's {@code chromium}, installed by
 * bench/install-chromium.sh when missing — the test fails, never skips, when it cannot be): a coordinator with
 * three registered nodes and two coflows; Chromium loads the page, runs its script (which fetches
 * /api/v1/status and fills the tables) and writes the rendered DOM and a screenshot. The DOM must show every
 * coflow and node the status API reports (the static HTML has none of them, so this proves the script ran),
 * and the PNG must be a non-blank image of the requested size.
 */
class StatusPageChromiumTest {
    private static final int WIDTH = 1000;
    private static final int HEIGHT = 640;
    private static final String[] NODES = {"nm-alpha", "nm-beta", "nm-gamma"};
    private static final String[] JOBS = {"job_1700000000000_0007", "job_1700000000000_0008"};

    private static String chromium;
    private static Coordinator coordinator;
    private static StatusHttpServer http;
    private static ActorTestKit proxies;

    @BeforeAll
    @Timeout(value = 15, unit = TimeUnit.MINUTES) // a first install downloads chromium; later runs find it at once
    static void installChromium() throws Exception {
        Path script = projectRoot().resolve("bench/install-chromium.sh");
        Path out = Files.createTempFile("install-chromium", ".out");
        Path err = Files.createTempFile("install-chromium", ".err");
        try {
            Process p = new ProcessBuilder("bash", script.toString()).redirectOutput(out.toFile())
                    .redirectError(err.toFile()).start();
            if (!p.waitFor(14, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                fail("bench/install-chromium.sh did not finish within 14 minutes; its output:\n" + read(err));
            }
            String path = read(out).trim();
            if (p.exitValue() != 0 || path.isEmpty() || !new File(path).canExecute()) {
                fail("headless Chromium is required by this test and could not be installed (bench/install-chromium.sh"
                        + " exited " + p.exitValue() + ", printed '" + path + "'):\n" + read(err));
            }
            chromium = path;
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    @BeforeAll
    @Timeout(60)
    static void startCoordinator() throws Exception {
        // Nodes never expire here: the probes report only until the page is set up, and Chromium may be slow to start.
        coordinator = Coordinator.start(TestSupport.settings(0, 20, "sincronia", 3_600_000), ConfigFactory.load(),
                StatusPageChromiumTest.class.getClassLoader());
        http = StatusHttpServer.start("127.0.0.1", 0, () -> coordinator.status(Duration.ofSeconds(5)));
        proxies = ActorTestKit.create("page-proxies", TestSupport.remoteConfig());
        ActorRef<CoordinatorCommand> entry = ActorRefResolver.get(proxies.system())
                .resolveActorRef(coordinator.entryPath());
        List<TestProbe<ClientCommand>> probes = new ArrayList<TestProbe<ClientCommand>>();
        for (String n : NODES) {
            TestProbe<ClientCommand> p = proxies.createTestProbe();
            entry.tell(new RegisterNode(new NodeInfo(n, n + ":13562", n + ":13563", 0, 0), p.getRef()));
            p.expectMessageClass(NodeRegistered.class, Duration.ofSeconds(10));
            probes.add(p);
        }
        entry.tell(new CoflowRegistered(JOBS[0], 1.0, "NORMAL", 0));
        entry.tell(new CoflowRegistered(JOBS[1], 4.0, "HIGH", 0));
        // Each node sends both jobs' data to the next one; report until the status shows both coflows with flows.
        long end = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        int epoch = 0;
        while (true) {
            epoch++;
            for (int i = 0; i < NODES.length; i++) {
                String src = NODES[i];
                String dst = NODES[(i + 1) % NODES.length];
                entry.tell(new EpochReport(src, epoch, Arrays.asList(
                        new FlowReport(JOBS[0], src, dst, 300_000_000L, 700_000_000L, 1_000_000_000L, 5e6, false),
                        new FlowReport(JOBS[1], src, dst, 20_000_000L, 80_000_000L, 100_000_000L, 5e6, false)),
                        probes.get(i).getRef()));
            }
            JsonNode s = status();
            if (s.get("coflows").size() == JOBS.length && s.get("coflows").get(0).get("flows").asInt() > 0
                    && s.get("coflows").get(1).get("flows").asInt() > 0) {
                break;
            }
            if (System.nanoTime() > end) {
                fail("the coordinator did not show both coflows with flows within 20 s: " + s);
            }
            Thread.sleep(50);
        }
    }

    @AfterAll
    static void stop() {
        if (http != null) {
            http.close();
        }
        if (proxies != null) {
            proxies.shutdownTestKit();
        }
        if (coordinator != null) {
            coordinator.close();
        }
    }

    @Test
    @Timeout(60)
    void headlessChromiumRendersWhatTheStatusApiReports() throws Exception {
        Path dir = Paths.get("target", "chromium-page");
        Files.createDirectories(dir);
        Path png = dir.resolve("coordinator-status.png").toAbsolutePath();
        Path dom = dir.resolve("dom.html");
        Path log = dir.resolve("chromium.log");
        Files.deleteIfExists(png);
        Path profile = Files.createTempDirectory(dir.toAbsolutePath(), "profile");
        // The flags keep Chromium off the network beyond loopback (this machine's network is closed) and give it a
        // fresh profile; the virtual-time budget lets the page's fetch and table rendering finish before the dump.
        List<String> cmd = Arrays.asList(chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--hide-scrollbars", "--user-data-dir=" + profile, "--window-size=" + WIDTH + "," + HEIGHT,
                "--virtual-time-budget=3000", "--screenshot=" + png, "--dump-dom",
                "http://127.0.0.1:" + http.port() + "/");
        Process p = new ProcessBuilder(cmd).redirectOutput(dom.toFile()).redirectError(log.toFile()).start();
        try {
            if (!p.waitFor(45, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                fail("chromium did not finish within 45 s; its log (" + log + "):\n" + tail(log));
            }
        } finally {
            deleteTree(profile);
        }
        assertEquals(0, p.exitValue(), "chromium failed; its log (" + log + "):\n" + tail(log));

        String html = read(dom);
        JsonNode s = status();
        for (JsonNode c : s.get("coflows")) {
            String job = c.get("jobId").asText();
            assertTrue(html.contains("<td>" + job + "</td>"), "the rendered page lacks a row for coflow " + job
                    + " that the status API reports; DOM in " + dom);
        }
        for (JsonNode n : s.get("nodes")) {
            String node = n.get("nodeId").asText();
            assertTrue(html.contains("<td>" + node + "</td>"), "the rendered page lacks a row for node " + node
                    + " that the status API reports; DOM in " + dom);
        }
        assertEquals(JOBS.length, s.get("coflows").size(), "status: " + s);
        assertEquals(NODES.length, s.get("nodes").size(), "status: " + s);
        assertTrue(html.contains("scheduler sincronia") && html.contains(NODES.length + " nodes, " + JOBS.length
                + " coflows"), "the page's summary line does not match the status; DOM in " + dom);

        assertTrue(Files.isRegularFile(png), "chromium wrote no screenshot; its log:\n" + tail(log));
        BufferedImage img = ImageIO.read(png.toFile());
        assertTrue(img != null, "the screenshot " + png + " is not a readable PNG");
        assertEquals(WIDTH, img.getWidth(), "screenshot width");
        assertEquals(HEIGHT, img.getHeight(), "screenshot height");
        double variance = lumaVariance(img);
        // A blank (single-colour) page has variance 0; text and table rules on white give far more than this.
        assertTrue(variance > 50, "the screenshot looks blank (luma variance " + variance + ")");
    }

    private static double lumaVariance(BufferedImage img) {
        double sum = 0;
        double sq = 0;
        long n = 0;
        for (int y = 0; y < img.getHeight(); y++) {
            for (int x = 0; x < img.getWidth(); x++) {
                int rgb = img.getRGB(x, y);
                double l = 0.299 * ((rgb >> 16) & 0xff) + 0.587 * ((rgb >> 8) & 0xff) + 0.114 * (rgb & 0xff);
                sum += l;
                sq += l * l;
                n++;
            }
        }
        double mean = sum / n;
        return sq / n - mean * mean;
    }

    private static JsonNode status() throws IOException {
        return new ObjectMapper().readTree(new URL("http://127.0.0.1:" + http.port() + "/api/v1/status"));
    }

    /** The project's root: surefire runs in the module directory (its parent holds bench/). */
    private static Path projectRoot() {
        Path module = Paths.get(System.getProperty("basedir", System.getProperty("user.dir"))).toAbsolutePath();
        return Files.isDirectory(module.resolve("bench")) ? module : module.getParent();
    }

    private static void deleteTree(Path root) throws IOException {
        List<Path> all = new ArrayList<Path>();
        try (java.util.stream.Stream<Path> walk = Files.walk(root)) {
            walk.forEach(all::add);
        }
        for (int i = all.size() - 1; i >= 0; i--) {
            Files.deleteIfExists(all.get(i));
        }
    }

    private static String read(Path p) throws IOException {
        return new String(Files.readAllBytes(p), StandardCharsets.UTF_8);
    }

    private static String tail(Path p) throws IOException {
        String s = read(p);
        return s.length() > 4000 ? s.substring(s.length() - 4000) : s;
    }
}
