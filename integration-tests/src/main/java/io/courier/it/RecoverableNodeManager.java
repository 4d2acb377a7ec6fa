package io.courier.it;

import java.io.File;
import java.io.IOException;
import java.net.BindException;
import java.nio.file.Files;
import java.nio.file.Path;

import io.courier.shuffle.nm.ProxyConfigs;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.mapred.ShuffleHandler;
import org.apache.hadoop.service.Service;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.event.Dispatcher;
import org.apache.hadoop.yarn.exceptions.YarnException;
import org.apache.hadoop.yarn.server.api.ResourceTracker;
import org.apache.hadoop.yarn.server.api.protocolrecords.NodeHeartbeatRequest;
import org.apache.hadoop.yarn.server.api.protocolrecords.NodeHeartbeatResponse;
import org.apache.hadoop.yarn.server.api.protocolrecords.RegisterNodeManagerRequest;
import org.apache.hadoop.yarn.server.api.protocolrecords.RegisterNodeManagerResponse;
import org.apache.hadoop.yarn.server.api.protocolrecords.UnRegisterNodeManagerRequest;
import org.apache.hadoop.yarn.server.api.protocolrecords.UnRegisterNodeManagerResponse;
import org.apache.hadoop.yarn.server.nodemanager.Context;
import org.apache.hadoop.yarn.server.nodemanager.NodeManager;
import org.apache.hadoop.yarn.server.nodemanager.NodeStatusUpdater;
import org.apache.hadoop.yarn.server.nodemanager.NodeStatusUpdaterImpl;
import org.apache.hadoop.yarn.server.nodemanager.health.NodeHealthCheckerService;
import org.apache.hadoop.yarn.server.resourcemanager.ResourceManager;
import org.apache.hadoop.yarn.webapp.util.WebAppUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One NodeManager of a mini cluster that can be killed and restarted with work-preserving recovery
 * ({@code yarn.nodemanager.recovery.enabled}, {@code .supervised}): it keeps its container-manager address, its
 * shuffle port (and with it the Courier proxy port), its local dirs and its recovery dir across restarts, so the
 * restarted NodeManager is the same node to the ResourceManager, to the ApplicationMaster and to reducers.
 *
 * <p>Why not MiniYARNCluster's own NodeManagers: MiniYARNCluster gives every NodeManager
 * {@code yarn.nodemanager.address=host:0}, and a NodeManager refuses recovery with an ephemeral port; and a
 * stopped {@code NodeManager} (a Hadoop service) cannot be started again, a restart is a new instance. So these
 * NodeManagers are created here, next to a MiniYARNCluster that runs only the ResourceManager, and talk to it
 * in-process (as MiniYARNCluster's own NodeManagers do without RPC).
 *
 * <p>{@link #kill()} stops the NodeManager the way a killed NodeManager process looks to the rest of the cluster
 * (supervised recovery): it does not unregister from the ResourceManager and leaves its containers running; its
 * shuffle service is gone. Not thread-safe: one thread (the test's, or its fault injector's) drives it.
 */
public final class RecoverableNodeManager {
    private static final Logger LOG = LoggerFactory.getLogger(RecoverableNodeManager.class);
    /** Attempts at a first start whose ports turned out to be taken (a bind race with another process). */
    static final int FIRST_START_ATTEMPTS = 3;

    private final int index;
    private final Configuration conf;
    private final ResourceManager rm;
    private NodeManager current;
    private int incarnation;

    private RecoverableNodeManager(int index, Configuration conf, ResourceManager rm) {
        this.index = index;
        this.conf = conf;
        this.rm = rm;
    }

    /**
     * Starts NodeManager {@code index} with its directories under {@code dir}, registering with {@code rm}, on
     * ports claimed from {@code ports}. {@code clusterConf} is the running cluster's configuration (it is copied).
     * The ports are only probed before the NodeManager binds them, so a start that fails to bind is retried on
     * newly claimed ports with its directories emptied (nothing of the failed attempt may be recovered), up to
     * {@link #FIRST_START_ATTEMPTS} times; any other failure is thrown at once.
     */
    static RecoverableNodeManager start(int index, Configuration clusterConf, ResourceManager rm, Path dir,
            ClusterPorts ports) throws IOException {
        for (int attempt = 1; ; attempt++) {
            RecoverableNodeManager nm = new RecoverableNodeManager(index, configure(clusterConf, dir, ports), rm);
            try {
                nm.startIncarnation();
                return nm;
            } catch (IOException | RuntimeException e) {
                if (attempt >= FIRST_START_ATTEMPTS || !lostBindRace(e)) {
                    throw e;
                }
                LOG.warn("NodeManager {} could not bind its ports (attempt {} of {}): {}; retrying on other ports",
                        index, attempt, FIRST_START_ATTEMPTS, e.toString());
                FileUtil.fullyDelete(dir.toFile());
            }
        }
    }

    /** The node's configuration: its directories under {@code dir}, recovery on, fixed ports from {@code ports}. */
    private static Configuration configure(Configuration clusterConf, Path dir, ClusterPorts ports)
            throws IOException {
        Configuration conf = new YarnConfiguration(clusterConf);
        String host = hostName();
        conf.set(YarnConfiguration.NM_LOCAL_DIRS, mkdirs(dir.resolve("local")));
        conf.set(YarnConfiguration.NM_LOG_DIRS, mkdirs(dir.resolve("log")));
        conf.set(YarnConfiguration.NM_REMOTE_APP_LOG_DIR, mkdirs(dir.resolve("remote-log")));
        conf.setBoolean(YarnConfiguration.NM_RECOVERY_ENABLED, true);
        conf.set(YarnConfiguration.NM_RECOVERY_DIR, mkdirs(dir.resolve("recovery")));
        conf.setBoolean(YarnConfiguration.NM_RECOVERY_SUPERVISED, true);
        conf.setInt(YarnConfiguration.NM_PMEM_MB,
                clusterConf.getInt("yarn.minicluster.yarn.nodemanager.resource.memory-mb", 1024));
        // Fixed across restarts: the node id (recovery requires it), the shuffle port (reducers know map hosts by
        // it) and so the Courier proxy port (shuffle port + offset); outside the ephemeral range, where the ports could
        // be taken while the node is down (by a peer's retry that connected to itself, say).
        int offset = ProxyConfigs.portOffset(conf);
        conf.set(YarnConfiguration.NM_ADDRESS, host + ":" + ports.claim(0));
        conf.setInt(ShuffleHandler.SHUFFLE_PORT_CONFIG_KEY, ports.claim(offset));
        conf.set(YarnConfiguration.NM_LOCALIZER_ADDRESS, host + ":0");
        WebAppUtils.setNMWebAppHostNameAndPort(conf, host, 0);
        return conf;
    }

    /** Whether {@code e} comes from a port that was taken when the NodeManager bound it. */
    static boolean lostBindRace(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof BindException) {
                return true;
            }
        }
        return false;
    }

    /** The NodeManager service running now (or the stopped one after {@link #kill()}). */
    public NodeManager nodeManager() {
        return current;
    }

    /** True while the current NodeManager runs. */
    public boolean running() {
        return current != null && current.getServiceState() == Service.STATE.STARTED;
    }

    /** This NodeManager's fixed shuffle port. */
    public int shufflePort() {
        return conf.getInt(ShuffleHandler.SHUFFLE_PORT_CONFIG_KEY, -1);
    }

    /**
     * Stops the NodeManager as a killed process looks: the shuffle service first (from this moment no map output of
     * this node can be fetched), then the rest; no unregistration, containers keep running.
     */
    public void kill() {
        if (!running()) {
            return;
        }
        long t0 = System.nanoTime();
        // The aux service first: the NodeManager's own stop spends seconds in other services before it gets there.
        current.getNMContext().getAuxServices().stop();
        current.stop();
        LOG.info("NodeManager {} (shuffle port {}) stopped in {} ms", index, shufflePort(),
                (System.nanoTime() - t0) / 1_000_000);
    }

    /** {@link #kill()}, then a new NodeManager with the same configuration, which recovers the state. */
    public void restart() throws IOException {
        kill();
        startIncarnation();
    }

    private void startIncarnation() throws IOException {
        long t0 = System.nanoTime();
        NodeManager nm = new InProcessNodeManager(rm);
        nm.init(new YarnConfiguration(conf));
        nm.start();
        if (nm.getServiceState() != Service.STATE.STARTED) {
            throw new IOException("NodeManager " + index + " did not start: " + nm.getFailureCause(),
                    nm.getFailureCause());
        }
        current = nm;
        incarnation++;
        LOG.info("NodeManager {} (incarnation {}, node {}, shuffle port {}) started in {} ms", index, incarnation,
                nm.getNMContext().getNodeId(), shufflePort(), (System.nanoTime() - t0) / 1_000_000);
    }

    private static String mkdirs(Path p) throws IOException {
        Files.createDirectories(p);
        return p.toAbsolutePath().toString();
    }

    static String hostName() {
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException("no local host name", e);
        }
    }

    /** A NodeManager that talks to the ResourceManager of this JVM directly, without RPC. */
    private static final class InProcessNodeManager extends NodeManager {
        private final ResourceManager rm;

        InProcessNodeManager(ResourceManager rm) {
            this.rm = rm;
        }

        @Override
        protected void doSecureLogin() {
            // no Kerberos in the mini cluster
        }

        @Override
        protected NodeStatusUpdater createNodeStatusUpdater(Context context, Dispatcher dispatcher,
                NodeHealthCheckerService healthChecker) {
            return new NodeStatusUpdaterImpl(context, dispatcher, healthChecker, metrics) {
                @Override
                protected ResourceTracker getRMClient() {
                    return new DirectResourceTracker(rm.getResourceTrackerService());
                }

                @Override
                protected void stopRMProxy() {
                    // nothing to close
                }
            };
        }
    }

    /** Forwards to the ResourceManager's tracker service in this JVM. */
    private static final class DirectResourceTracker implements ResourceTracker {
        private final ResourceTracker rt;

        DirectResourceTracker(ResourceTracker rt) {
            this.rt = rt;
        }

        @Override
        public RegisterNodeManagerResponse registerNodeManager(RegisterNodeManagerRequest request)
                throws YarnException, IOException {
            return rt.registerNodeManager(request);
        }

        @Override
        public NodeHeartbeatResponse nodeHeartbeat(NodeHeartbeatRequest request) throws YarnException, IOException {
            return rt.nodeHeartbeat(request);
        }

        @Override
        public UnRegisterNodeManagerResponse unRegisterNodeManager(UnRegisterNodeManagerRequest request)
                throws YarnException, IOException {
            return rt.unRegisterNodeManager(request);
        }
    }

    @Override
    public String toString() {
        return "NodeManager " + index + " (shuffle port " + shufflePort() + ", incarnation " + incarnation + ")";
    }

    /** The directory of this node's local dirs, for callers that look for map outputs. */
    public File localDir() {
        return new File(conf.get(YarnConfiguration.NM_LOCAL_DIRS));
    }
}
