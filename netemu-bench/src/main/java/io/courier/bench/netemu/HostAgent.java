package io.courier.bench.netemu;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.courier.shuffle.coordination.CoordinationConfig;
import io.courier.shuffle.coordination.ProxyCoordination;
import io.courier.shuffle.nm.CourierShuffleHandler;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.ShuffleHandler;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.mapreduce.security.token.JobTokenIdentifier;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.server.api.ApplicationInitializationContext;
import org.apache.hadoop.yarn.server.api.ApplicationTerminationContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The benchmark's process in one emulated host: the node's shuffle service ({@link CourierShuffleHandler}, i.e.
 * Hadoop's ShuffleHandler on port 13562 plus the Courier proxy on 13563, as a NodeManager runs it) and that
 * host's reducers, driven by the coordinator over a Unix socket (control traffic never crosses the emulated
 * switch). With COORDINATE it also runs a second shuffle service (ports 13572/13573) whose proxy follows a
 * Courier coordinator, reached over the management network ({@code --mgmt-ip}); {@link Mode#COURIER_COORD} runs
 * fetch through it, so that the first proxy stays uncoordinated for {@link Mode#COURIER}. Owner of the handlers and
 * of the request threads; {@link #serve} returns after a QUIT request (or the
 * process ends on SIGTERM from netemu.sh, whose namespaces go with it) and stops everything it started.
 *
 * <p>Threads: one acceptor (the caller of {@link #serve}); one thread per request connection, so requests run
 * concurrently (the coflows of a mixed stream); RUN starts one thread per reducer and waits for them on the
 * request's thread.
 */
final class HostAgent {
    private static final Logger LOG = LoggerFactory.getLogger(HostAgent.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final int host;
    private final String ip;
    /** This host's address on the management network (the coordinator client binds there). */
    private final String mgmtIp;
    private final String subnet;
    private final Path socket;
    private final File work;
    private final File localDir;
    private CourierShuffleHandler handler;
    /** The coordinated shuffle service, once COORDINATE started it; guarded by {@code coordLock} for starting. */
    private volatile CourierShuffleHandler coordHandler;
    private final Object coordLock = new Object();
    private volatile ServerSocketChannel server;

    HostAgent(int host, String ip, String mgmtIp, Path socket, File work) {
        this.host = host;
        this.ip = ip;
        this.mgmtIp = mgmtIp != null ? mgmtIp : ip;
        this.subnet = ip.substring(0, ip.lastIndexOf('.'));
        this.socket = socket;
        this.work = work;
        this.localDir = new File(work, "nm-local");
    }

    /** Starts the shuffle service, serves requests until QUIT, stops everything. */
    void serve() throws Exception {
        if (!localDir.mkdirs() && !localDir.isDirectory()) {
            throw new IOException("host " + host + ": cannot create " + localDir);
        }
        handler = new CourierShuffleHandler();
        handler.init(nmConf(BenchIds.SHUFFLE_PORT));
        handler.start();
        ExecutorService requests = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "netemu-request");
            t.setDaemon(true);
            return t;
        });
        Files.deleteIfExists(socket);
        try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            server.bind(UnixDomainSocketAddress.of(socket));
            this.server = server;
            java.nio.file.Path relaySocket = handler.proxy().relaySocket();
            LOG.info("host {} ({}) ready: shuffle port {}, proxy {} ({} transport, tasks on {}), control socket {},"
                    + " Courier overrides {}", host, ip, BenchIds.SHUFFLE_PORT, handler.proxy().nodeId(),
                    handler.proxy().transport(), relaySocket == null ? "loopback TCP" : relaySocket, socket,
                    CourierOverrides.from(System.getProperties()).settings());
            System.out.println("READY " + host);
            System.out.flush();
            while (true) {
                SocketChannel c;
                try {
                    c = server.accept();
                } catch (java.nio.channels.ClosedChannelException e) {
                    break; // a QUIT request closed the server socket
                }
                requests.execute(() -> handle(c));
            }
        } finally {
            requests.shutdownNow();
            requests.awaitTermination(10, TimeUnit.SECONDS);
            CourierShuffleHandler ch = coordHandler;
            if (ch != null) {
                ch.stop();
            }
            handler.stop();
            Files.deleteIfExists(socket);
        }
    }

    private Configuration nmConf(int shufflePort) {
        Configuration c = new Configuration(false);
        c.set("yarn.nodemanager.address", ip + ":0");
        c.set("yarn.nodemanager.local-dirs", localDir.getAbsolutePath());
        c.setInt(ShuffleHandler.SHUFFLE_PORT_CONFIG_KEY, shufflePort);
        c.set("courier.proxy.port", "-1");
        c.set("courier.proxy.port-offset", Integer.toString(BenchIds.PROXY_PORT_OFFSET));
        c.set("courier.proxy.host", ip);
        return CourierOverrides.from(System.getProperties()).applyTo(c);
    }

    private void handle(SocketChannel c) {
        try (c; BufferedReader in = new BufferedReader(new InputStreamReader(Channels.newInputStream(c),
                StandardCharsets.UTF_8)); OutputStream out = Channels.newOutputStream(c)) {
            String line = in.readLine();
            if (line == null) {
                return;
            }
            AgentMessages.Request req = JSON.readValue(line, AgentMessages.Request.class);
            AgentMessages.Response resp;
            try {
                resp = dispatch(req);
            } catch (Exception e) {
                LOG.warn("host {}: {} failed", host, req.op(), e);
                resp = AgentMessages.Response.failure("host " + host + ": " + req.op() + " of coflow "
                        + req.coflow() + " failed: " + e);
            }
            out.write((JSON.writeValueAsString(resp) + "\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
            if (req.op() == AgentMessages.Op.QUIT) {
                server.close(); // ends the accept loop, which stops everything
            }
        } catch (IOException e) {
            LOG.warn("host {}: control connection failed: {}", host, e.toString());
        }
    }

    private AgentMessages.Response dispatch(AgentMessages.Request req) throws Exception {
        switch (req.op()) {
            case PING:
            case QUIT:
                return AgentMessages.Response.success();
            case PREPARE:
                return prepare(req);
            case LINK:
                return link(req);
            case COORDINATE:
                return coordinate(req);
            case RUN:
                return run(req);
            case FINISH:
                return finish(req);
            default:
                throw new IllegalArgumentException("unknown op " + req.op());
        }
    }

    private AgentMessages.Response prepare(AgentMessages.Request req) throws IOException {
        int coflow = req.coflow();
        long[] sizes = new long[req.partitions()];
        java.util.Arrays.fill(sizes, req.partitionBytes());
        long[] all = new long[req.mapsPerHost() * req.partitions()];
        for (int m = 0; m < req.mapsPerHost(); m++) {
            int index = (host - 1) * req.mapsPerHost() + m;
            long[] lengths = SyntheticMapOutputs.write(localDir, BenchIds.USER, BenchIds.app(coflow),
                    BenchIds.mapAttempt(coflow, index), sizes, 31L * coflow + index);
            System.arraycopy(lengths, 0, all, m * req.partitions(), lengths.length);
        }
        registerJob(coflow);
        return new AgentMessages.Response(true, null, all, null, ProcessHandle.current().pid(), false);
    }

    /** Gives the job's token to every shuffle service of this host, as the NodeManager does for a job's task. */
    private void registerJob(int coflow) throws IOException {
        handler.initializeApplication(registration(coflow));
        CourierShuffleHandler ch = coordHandler;
        if (ch != null) {
            // A context each: ShuffleHandler reads the token out of the context's buffer (it consumes it).
            ch.initializeApplication(registration(coflow));
        }
    }

    private static ApplicationInitializationContext registration(int coflow) throws IOException {
        return new ApplicationInitializationContext(BenchIds.USER, appId(coflow), jobTokenData(coflow));
    }

    /** This host's map outputs of the prepared {@code sourceCoflow}, hard-linked under the names of a new job. */
    private AgentMessages.Response link(AgentMessages.Request req) throws IOException {
        int from = req.sourceCoflow();
        int to = req.coflow();
        for (int m = 0; m < req.mapsPerHost(); m++) {
            int index = (host - 1) * req.mapsPerHost() + m;
            File src = SyntheticMapOutputs.attemptDir(localDir, BenchIds.USER, BenchIds.app(from),
                    BenchIds.mapAttempt(from, index));
            File dst = SyntheticMapOutputs.attemptDir(localDir, BenchIds.USER, BenchIds.app(to),
                    BenchIds.mapAttempt(to, index));
            if (!dst.mkdirs() && !dst.isDirectory()) {
                throw new IOException("host " + host + ": cannot create " + dst + " for coflow " + to);
            }
            for (String f : new String[] {"file.out", "file.out.index"}) {
                Path s = new File(src, f).toPath();
                if (!Files.exists(s)) {
                    throw new IOException("host " + host + ": coflow " + from + " has no " + s + " to link as coflow "
                            + to + " (not prepared?)");
                }
                Files.createLink(new File(dst, f).toPath(), s);
            }
        }
        registerJob(to);
        return AgentMessages.Response.success();
    }

    /**
     * Starts the coordinated shuffle service (once; a repeated COORDINATE with the same coordinator only waits)
     * and waits until its proxy follows the coordinator.
     */
    private AgentMessages.Response coordinate(AgentMessages.Request req) throws Exception {
        CourierShuffleHandler ch;
        synchronized (coordLock) {
            ch = coordHandler;
            if (ch == null) {
                Configuration c = nmConf(BenchIds.COORD_SHUFFLE_PORT);
                c.set(CoordinationConfig.ADDRESS, req.coordinator());
                c.set(CoordinationConfig.CLIENT_HOST, mgmtIp);
                c.setLong(CoordinationConfig.CAPACITY, req.capacityBytesPerSec());
                // A second ShuffleHandler registers a second "ShuffleMetrics" source: Hadoop allows duplicate
                // source names only in its mini-cluster mode (a JVM-wide switch; this JVM is ours alone).
                DefaultMetricsSystem.setMiniClusterMode(true);
                ch = new CourierShuffleHandler();
                ch.init(c);
                ch.start();
                coordHandler = ch;
                LOG.info("host {}: coordinated proxy {} started towards coordinator {} (client at {}, capacity {}"
                        + " B/s)", host, ch.proxy().nodeId(), req.coordinator(), mgmtIp, req.capacityBytesPerSec());
            }
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(req.waitMillis());
        // Polling the client's state: ProxyCoordination offers no completion to wait on.
        while (!coordinated(ch)) {
            if (System.nanoTime() > deadline) {
                throw new IOException("host " + host + ": proxy " + ch.proxy().nodeId() + " does not follow the "
                        + "coordinator at " + req.coordinator() + " after " + req.waitMillis() + " ms (mode "
                        + ch.coordination().mode() + "); see this agent's log");
            }
            Thread.sleep(50);
        }
        return AgentMessages.Response.success();
    }

    private static boolean coordinated(CourierShuffleHandler ch) {
        ProxyCoordination c = ch.coordination();
        return c != null && c.mode() == io.courier.coordinator.client.Mode.COORDINATED;
    }

    private AgentMessages.Response run(AgentMessages.Request req) throws Exception {
        CourierShuffleHandler service = handler;
        int shufflePort = BenchIds.SHUFFLE_PORT;
        if (req.mode() == Mode.COURIER_COORD) {
            service = coordHandler;
            shufflePort = BenchIds.COORD_SHUFFLE_PORT;
            if (service == null) {
                throw new IllegalStateException("host " + host + ": coflow " + req.coflow() + " in mode "
                        + req.mode() + " but no coordinated proxy runs (COORDINATE first)");
            }
            if (!coordinated(service)) {
                throw new IllegalStateException("host " + host + ": coflow " + req.coflow() + ": proxy "
                        + service.proxy().nodeId() + " does not follow the coordinator now (mode "
                        + service.coordination().mode() + ")");
            }
        }
        ByteBuffer meta = service.getMetaData();
        List<ReducerRun> runs = new ArrayList<>();
        for (int p : req.reducers()) {
            runs.add(new ReducerRun(req.coflow(), p, req.hosts(), req.mapsPerHost(), req.partitions(), req.mode(),
                    req.parallelCopies(), subnet, shufflePort, work, meta, ip));
        }
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, runs.size()), r -> {
            Thread t = new Thread(r, "netemu-reducer");
            t.setDaemon(true);
            return t;
        });
        try {
            // Reducers are set up before the start, as real reduce tasks are during the map phase.
            List<Future<?>> setups = new ArrayList<>();
            for (ReducerRun r : runs) {
                setups.add(pool.submit(r::prepare));
            }
            for (Future<?> f : setups) {
                f.get();
            }
            // All reducers of all hosts start together at the coordinator's deadline.
            long wait = req.startNanos() - System.nanoTime();
            if (wait > 0) {
                TimeUnit.NANOSECONDS.sleep(wait);
            } else {
                LOG.warn("host {}: coflow {} starts {} ms late: setting up its reducers overran the start lead",
                        host, req.coflow(), TimeUnit.NANOSECONDS.toMillis(-wait));
            }
            List<Future<AgentMessages.ReducerResult>> fs = new ArrayList<>();
            for (ReducerRun r : runs) {
                fs.add(pool.submit(r::call));
            }
            List<AgentMessages.ReducerResult> results = new ArrayList<>();
            boolean coordinatedRun = req.mode() == Mode.COURIER_COORD;
            boolean fellBack = false;
            for (Future<AgentMessages.ReducerResult> f : fs) {
                while (true) {
                    try {
                        results.add(f.get(20, TimeUnit.MILLISECONDS));
                        break;
                    } catch (java.util.concurrent.TimeoutException e) {
                        // While the reducers run: did the proxy stop following the coordinator?
                        fellBack |= coordinatedRun && !coordinated(service);
                    }
                }
            }
            fellBack |= coordinatedRun && !coordinated(service);
            if (fellBack) {
                LOG.warn("host {}: coflow {}: the coordinated proxy fell back to decentralized scheduling during the"
                        + " run", host, req.coflow());
            }
            return new AgentMessages.Response(true, null, null, results, ProcessHandle.current().pid(), fellBack);
        } finally {
            pool.shutdownNow();
            for (ReducerRun r : runs) {
                deleteTree(r.workDir().toPath());
            }
        }
    }

    private AgentMessages.Response finish(AgentMessages.Request req) throws IOException {
        ApplicationTerminationContext ctx = new ApplicationTerminationContext(appId(req.coflow()));
        handler.stopApplication(ctx);
        CourierShuffleHandler ch = coordHandler;
        if (ch != null) {
            ch.stopApplication(ctx); // the job's coflow completes at the coordinator
        }
        deleteTree(new File(localDir, "usercache/" + BenchIds.USER + "/appcache/" + BenchIds.app(req.coflow()))
                .toPath());
        return AgentMessages.Response.success();
    }

    private static ApplicationId appId(int coflow) {
        return ApplicationId.newInstance(BenchIds.CLUSTER_TS, coflow);
    }

    /** What the MR ApplicationMaster sends the shuffle service for a job: the job token (secret = HMAC key). */
    private static ByteBuffer jobTokenData(int coflow) throws IOException {
        JobTokenIdentifier id = new JobTokenIdentifier(new Text(BenchIds.job(coflow)));
        Token<JobTokenIdentifier> token = new Token<>(id.getBytes(), BenchIds.secret(coflow), id.getKind(),
                new Text("shuffle"));
        return ShuffleHandler.serializeServiceData(token);
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : (Iterable<Path>) s.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        }
    }
}
