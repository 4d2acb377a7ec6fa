package io.courier.shuffle.nm;

import io.courier.shuffle.coordination.CoordinationConfig;
import io.courier.shuffle.coordination.ProxyCoordination;
import io.courier.shuffle.proxy.CourierProxy;
import io.courier.shuffle.proxy.ProxyConfig;
import io.courier.shuffle.proxy.relay.TaskUsers;
import io.courier.shuffle.service.ProxyPortRule;
import io.courier.shuffle.service.ServiceMetadata;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.JobID;
import org.apache.hadoop.mapred.ShuffleHandler;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.server.api.ApplicationInitializationContext;
import org.apache.hadoop.yarn.server.api.ApplicationTerminationContext;
import org.apache.hadoop.yarn.server.api.AuxiliaryLocalPathHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.BindException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.function.Function;

/**
 * The NodeManager's {@code mapreduce_shuffle} service with Courier: Hadoop's {@link ShuffleHandler} (jobs that do
 * not opt in keep fetching over HTTP from it) plus this node's {@link CourierProxy}, which serves map outputs to
 * remote proxies and fetches for local reducers over merged connections (DESIGN.md "The data path").
 *
 * <ul>
 *   <li>Ports: the proxy listens where the cluster's {@link ProxyPortRule} says ({@code courier.proxy.port},
 *       default 13563; -1 = shuffle port + {@code courier.proxy.port-offset}). With the offset rule and
 *       {@code mapreduce.shuffle.port=0} (mini clusters) the handler picks a shuffle port whose partner is free
 *       too, and retries a few times when it loses a bind race.</li>
 *   <li>Secrets: ShuffleHandler's job-token secret manager; map outputs: the NodeManager's local dirs.</li>
 *   <li>{@link #getMetaData()}: {@link ServiceMetadata} (the AM reads only the leading shuffle port).</li>
 *   <li>Metrics2 source {@link CourierProxyMetrics} while started.</li>
 *   <li>Scheduling: {@link ProxyCoordination} registers the node with the coordinator named by
 *       {@code courier.coordinator.address}, reports every epoch and applies its decisions; without one (not
 *       configured, unreachable, silent) the proxy runs Stream's decentralized priorities. Coflows are registered
 *       at a job's first served segment and completed in {@link #stopApplication}.</li>
 * </ul>
 * If the proxy cannot start, the service fails to start (the NodeManager does not come up), with the reason.
 *
 * <p>Threads: the NodeManager calls init/start/stop from its service thread, {@code initializeApplication} /
 * {@code stopApplication} from its aux-services event thread, {@link #getMetaData()} from container-manager
 * threads; the proxy's event loops call the locator and the secret lookup.
 */
public class CourierShuffleHandler extends ShuffleHandler {
    private static final Logger LOG = LoggerFactory.getLogger(CourierShuffleHandler.class);

    /** Start attempts when the handler picks the ports itself and may lose a bind race. */
    static final int BIND_ATTEMPTS = 5;

    /** Chooses a shuffle port whose partner {@code port + offset} is free; replaceable in tests. */
    interface PortChooser {
        int choose(int offset) throws IOException;
    }

    private final PortChooser ports;
    private final Object pathsLock = new Object();
    private volatile AuxiliaryLocalPathHandler fallbackPaths;
    private volatile CourierProxy proxy;
    private volatile ProxyCoordination coordination;
    private volatile ServiceMetadata metadata;
    private String metricsSource;

    public CourierShuffleHandler() {
        this(PortPairPicker::pick);
    }

    CourierShuffleHandler(PortChooser ports) {
        super();
        this.ports = ports;
    }

    @Override
    protected void serviceInit(Configuration conf) throws Exception {
        // Refuse bad courier.proxy.* settings before anything binds.
        ProxyConfigs.portRule(conf);
        ProxyConfigs.fromHadoop(conf);
        ProxyConfigs.coordination(conf);
        super.serviceInit(conf);
    }

    @Override
    protected void serviceStart() throws Exception {
        Configuration conf = getConfig(); // ShuffleHandler's own copy: writing the shuffle port here is local
        ProxyPortRule rule = ProxyConfigs.portRule(conf);
        ProxyConfig base = ProxyConfigs.fromHadoop(conf);
        CoordinationConfig coordinationConfig = ProxyConfigs.coordination(conf);
        boolean pickPorts = rule.isOffset() && conf.getInt(SHUFFLE_PORT_CONFIG_KEY, DEFAULT_SHUFFLE_PORT) == 0;
        // Restarting ShuffleHandler re-opens its recovery store, which is only safe when there is none.
        int attempts = pickPorts && getRecoveryPath() == null ? BIND_ATTEMPTS : 1;
        Function<String, String> userOfJob = job -> userRsrc == null ? null : userRsrc.get(job);
        NodeManagerMapOutputLocator locator = new NodeManagerMapOutputLocator(userOfJob,
                this::getAuxiliaryLocalPathHandler, base.mapOutputOwnerCheck() ? ContainerUsers.runAs(conf, userOfJob)
                        : null);
        LocalizedJobConf jobHints = new LocalizedJobConf(userOfJob, this::getAuxiliaryLocalPathHandler);
        JobTokenSecrets secrets = new JobTokenSecrets(() -> secretManager);
        TaskUsers taskUsers = ContainerUsers.of(conf, base, userOfJob);
        for (int attempt = 1; ; attempt++) {
            if (pickPorts) {
                conf.setInt(SHUFFLE_PORT_CONFIG_KEY, ports.choose(ProxyConfigs.portOffset(conf)));
            }
            int configuredShufflePort = conf.getInt(SHUFFLE_PORT_CONFIG_KEY, DEFAULT_SHUFFLE_PORT);
            int proxyPort = rule.isOffset() ? rule.proxyPortFor(configuredShufflePort) : rule.proxyPortFor(0);
            ProxyConfig config = base.withPort(proxyPort);
            CourierProxy p = new CourierProxy(config, secrets, locator, taskUsers);
            String nodeId;
            if (attempts == 1) {
                // ShuffleHandler first: its start creates the secret manager and, with NodeManager recovery,
                // reloads the secrets of running jobs. A proxy answering before that would refuse their fetches
                // with UNKNOWN_JOB (a read error that can fail a map) while the restarted node comes up.
                super.serviceStart();
                try {
                    nodeId = p.start();
                } catch (Exception e) {
                    p.close(); // the service's failed start stops ShuffleHandler (serviceStop)
                    throw proxyStartFailure(config, rule, configuredShufflePort, e);
                }
            } else {
                // Picking the ports, without recovery: the proxy binds first. If ShuffleHandler then loses its
                // port, closing the proxy is all it takes to try another pair (a proxy that lost its port would
                // otherwise leave ShuffleHandler bound). No job has tasks on this node yet: its secret manager
                // being empty for a moment refuses nothing that could succeed.
                try {
                    nodeId = p.start();
                } catch (Exception e) {
                    p.close();
                    if (isBindFailure(e) && attempt < attempts) {
                        LOG.warn("Courier proxy port {} (shuffle port {} + offset) was taken; picking another pair"
                                + " (attempt {} of {})", proxyPort, configuredShufflePort, attempt, attempts);
                        continue;
                    }
                    throw proxyStartFailure(config, rule, configuredShufflePort, e);
                }
                try {
                    super.serviceStart();
                } catch (Exception e) {
                    p.close();
                    if (isBindFailure(e) && attempt < attempts) {
                        LOG.warn("Shuffle port {} was taken before ShuffleHandler bound it; picking another pair"
                                + " (attempt {} of {})", configuredShufflePort, attempt, attempts);
                        continue; // the failed bind left nothing of ShuffleHandler open
                    }
                    throw e;
                }
            }
            int shufflePort = conf.getInt(SHUFFLE_PORT_CONFIG_KEY, -1); // ShuffleHandler writes back the bound port
            proxy = p;
            Path relaySocket = p.relaySocket();
            metadata = new ServiceMetadata(shufflePort, proxyPort, rule, relaySocket == null ? null
                    : relaySocket.toString());
            registerMetrics(p, nodeId, proxyPort);
            // Never fails for coordinator trouble: without one the proxy schedules decentralized.
            coordination = ProxyCoordination.start(coordinationConfig, p, config.host() + ":" + shufflePort,
                    jobHints);
            // The transport is said because "auto" resolves per machine: an operator comparing nodes needs it.
            LOG.info("Courier proxy {} listening on {}:{} ({} transport) next to ShuffleHandler on port {} (proxy port "
                    + "rule: {}); local tasks connect {}, task users checked: {}", nodeId, config.bindHost(), proxyPort,
                    p.transport(), shufflePort, rule, relaySocket == null ? "over loopback TCP" : "on " + relaySocket,
                    taskUsers == null || relaySocket == null ? "no" : taskUsers);
            return;
        }
    }

    private void registerMetrics(CourierProxy p, String nodeId, int proxyPort) {
        String name = CourierProxyMetrics.sourceName(proxyPort);
        try {
            DefaultMetricsSystem.instance().register(name, "Courier proxy of this NodeManager",
                    new CourierProxyMetrics(p, nodeId));
            metricsSource = name;
        } catch (RuntimeException e) {
            // Metrics are for operators; a registration clash must not take the shuffle down.
            LOG.warn("Could not register metrics source {} for Courier proxy {}: {}", name, nodeId, e.toString());
        }
    }

    private static boolean isBindFailure(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof BindException) {
                return true;
            }
        }
        return false;
    }

    @Override
    protected void serviceStop() throws Exception {
        try {
            ProxyCoordination c = coordination;
            coordination = null;
            if (c != null) {
                c.close(); // before the proxy: the client reports from the proxy's scheduler
            }
            CourierProxy p = proxy;
            proxy = null;
            metadata = null;
            if (p != null) {
                p.close();
            }
        } finally {
            try {
                if (metricsSource != null) {
                    DefaultMetricsSystem.instance().unregisterSource(metricsSource);
                    metricsSource = null;
                }
            } finally {
                super.serviceStop();
            }
        }
    }

    /** {@link ServiceMetadata}: the shuffle port first (all the AM reads), then Courier's proxy port and rule. */
    @Override
    public synchronized ByteBuffer getMetaData() {
        ServiceMetadata m = metadata;
        return m == null ? super.getMetaData() : m.encode();
    }

    /**
     * Records the job's token and user (ShuffleHandler). Runs once per task container of the job on this node,
     * never for the AM container; ShuffleHandler's bookkeeping is a map put, so repeating it is harmless.
     */
    @Override
    public void initializeApplication(ApplicationInitializationContext context) {
        super.initializeApplication(context);
        LOG.debug("Courier: job of {} (user {}) known to the proxy", context.getApplicationId(), context.getUser());
    }

    /**
     * Forgets the job (ShuffleHandler drops its secret and user; the proxy its cached indexes). Never reads map
     * outputs: the NodeManager deletes them concurrently.
     */
    @Override
    public void stopApplication(ApplicationTerminationContext context) {
        super.stopApplication(context);
        CourierProxy p = proxy;
        String job = jobOf(context.getApplicationId());
        if (p != null) {
            p.jobFinished(job);
        }
        ProxyCoordination c = coordination;
        if (c != null) {
            c.jobFinished(job); // the job's coflow completes at the coordinator
        }
    }

    private static IOException proxyStartFailure(ProxyConfig config, ProxyPortRule rule, int shufflePort,
            Exception e) {
        return new IOException("Courier proxy could not start on " + config.bindHost() + ":" + config.port()
                + " (courier.proxy.port rule: " + rule + ", shuffle port " + shufflePort + "): " + e
                + ephemeralHint(config.port(), EphemeralPortRange.ofThisMachine(), e), e);
    }

    /**
     * For a port taken while it lies in the ephemeral range, what an operator needs to know: any outgoing connection
     * may have been given it while the node was down, and fixed ports belong outside the range.
     */
    static String ephemeralHint(int port, EphemeralPortRange range, Exception e) {
        if (range == null || !range.contains(port) || !isBindFailure(e)) {
            return "";
        }
        return "; the port lies in the kernel's ephemeral range " + range.low() + "-" + range.high()
                + ", from which outgoing connections take their own ports: configure ports outside it";
    }

    /** The MapReduce job id of an application, as ShuffleHandler derives it. */
    static String jobOf(ApplicationId app) {
        return new JobID(Long.toString(app.getClusterTimestamp()), app.getId()).toString();
    }

    /**
     * The NodeManager's local-path handler, or a {@link LocalDirsPathHandler} over {@code yarn.nodemanager.local-dirs}
     * when the NodeManager gave none (the isolated aux-service class loader does not forward it).
     */
    @Override
    public AuxiliaryLocalPathHandler getAuxiliaryLocalPathHandler() {
        AuxiliaryLocalPathHandler h = super.getAuxiliaryLocalPathHandler();
        if (h != null) {
            return h;
        }
        AuxiliaryLocalPathHandler f = fallbackPaths;
        if (f == null && getConfig() != null) {
            synchronized (pathsLock) {
                f = fallbackPaths;
                if (f == null) {
                    LOG.info("No local-path handler from the NodeManager (isolated class loader?): resolving map"
                            + " outputs over yarn.nodemanager.local-dirs");
                    f = new LocalDirsPathHandler(getConfig());
                    fallbackPaths = f;
                }
            }
        }
        return f;
    }

    /** The running proxy, or null when the service is not started. For tests and tools in the NodeManager JVM. */
    public CourierProxy proxy() {
        return proxy;
    }

    /** The proxy's coordination (coordinator client or decentralized fallback), or null when not started. */
    public ProxyCoordination coordination() {
        return coordination;
    }

    /** The metadata this service advertises, or null when it is not started. */
    public ServiceMetadata serviceMetadata() {
        return metadata;
    }
}
