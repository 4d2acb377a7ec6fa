package io.courier.it;

import java.io.File;
import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.ShuffleHandler;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.MiniYARNCluster;
import org.apache.hadoop.yarn.server.api.AuxiliaryService;
import org.apache.hadoop.yarn.server.nodemanager.NodeManager;
import org.apache.hadoop.yarn.server.nodemanager.containermanager.AuxServices;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A MiniDFSCluster (1 DataNode) plus a MiniYARNCluster with several NodeManagers whose {@code mapreduce_shuffle}
 * auxiliary service is Hadoop's stock {@code ShuffleHandler} or Courier's handler. Not MiniMRYarnCluster: that one
 * overwrites the aux-service settings.
 *
 * <p>The configuration is the one proven in a 3-NM mini cluster (research HADOOP_VERIFIED §1): 2 containers of
 * 512 MB per NodeManager and one container per NodeManager heartbeat, so that the maps of a job spread over all
 * nodes and the shuffle crosses nodes.
 *
 * <p>Owns both clusters and stops them in {@link #close()}. One thread starts, uses and closes it; jobs submitted
 * through {@link #jobConf(boolean)} may run from that thread. Both mini clusters work relative to their own
 * directories under {@code workDir}, except MiniYARNCluster, which always uses {@code target/<name>} under the
 * process's working directory.
 */
public final class MiniCourierCluster implements AutoCloseable {
    /** The reduce-side plugin that makes a job use Courier. */
    public static final String COURIER_CONSUMER = "io.courier.shuffle.reduce.CourierShuffleConsumer";
    /** Job key that selects the reduce-side shuffle plugin. */
    public static final String CONSUMER_KEY = "mapreduce.job.reduce.shuffle.consumer.plugin.class";
    private static final String SHUFFLE = ShuffleHandler.MAPREDUCE_SHUFFLE_SERVICEID;
    private static final Logger LOG = LoggerFactory.getLogger(MiniCourierCluster.class);

    private final NodeShuffleService service;
    private final MiniDFSCluster dfs;
    private final MiniYARNCluster yarn;
    private final Configuration conf;
    private final long startMillis;
    /** The NodeManagers, when this cluster runs {@link RecoverableNodeManager}s; null: MiniYARNCluster's own. */
    private final List<RecoverableNodeManager> recoverable;

    private MiniCourierCluster(NodeShuffleService service, MiniDFSCluster dfs, MiniYARNCluster yarn,
                               Configuration conf, long startMillis, List<RecoverableNodeManager> recoverable) {
        this.service = service;
        this.dfs = dfs;
        this.yarn = yarn;
        this.conf = conf;
        this.startMillis = startMillis;
        this.recoverable = recoverable == null ? null : List.copyOf(recoverable);
    }

    /**
     * Starts HDFS and YARN with {@code nodeManagers} NodeManagers running {@code service}. {@code name} names the
     * YARN cluster's directory ({@code target/<name>}); {@code workDir} holds HDFS and the job staging dirs.
     */
    public static MiniCourierCluster start(String name, int nodeManagers, NodeShuffleService service, Path workDir)
            throws IOException, InterruptedException {
        return start(name, nodeManagers, service, workDir, java.util.Collections.<String, String>emptyMap());
    }

    /**
     * As {@link #start(String, int, NodeShuffleService, Path)}, with {@code nodeSettings} (for example
     * {@code courier.coordinator.address}) added to the configuration the NodeManagers and jobs see.
     */
    public static MiniCourierCluster start(String name, int nodeManagers, NodeShuffleService service, Path workDir,
            Map<String, String> nodeSettings) throws IOException, InterruptedException {
        return start(name, nodeManagers, service, workDir, nodeSettings, false);
    }

    /**
     * As {@link #start(String, int, NodeShuffleService, Path)}, with {@link RecoverableNodeManager}s (fixed ports,
     * work-preserving recovery) that {@link #recoverable(int)} can kill and restart; their directories are under
     * {@code workDir/nm-<i>}.
     */
    public static MiniCourierCluster startRecoverable(String name, int nodeManagers, NodeShuffleService service,
            Path workDir) throws IOException, InterruptedException {
        return start(name, nodeManagers, service, workDir, java.util.Collections.<String, String>emptyMap(), true);
    }

    private static MiniCourierCluster start(String name, int nodeManagers, NodeShuffleService service, Path workDir,
            Map<String, String> nodeSettings, boolean recoverableNodes) throws IOException, InterruptedException {
        long t0 = System.nanoTime();
        Files.createDirectories(workDir);
        Configuration conf = new YarnConfiguration();
        conf.set("fs.permissions.umask-mode", "000");
        // Quiet, fast DFS: one replica, no audit flood.
        conf.setInt("dfs.replication", 1);
        MiniDFSCluster dfs = new MiniDFSCluster.Builder(conf, workDir.resolve("dfs").toFile())
                .numDataNodes(1).format(true).build();
        MiniYARNCluster yarn = null;
        try {
            dfs.waitActive();
            conf.set("fs.defaultFS", dfs.getFileSystem().getUri().toString());
            configureYarn(conf, service);
            for (Map.Entry<String, String> e : nodeSettings.entrySet()) {
                conf.set(e.getKey(), e.getValue());
            }
            // With recoverable NodeManagers, MiniYARNCluster runs only the ResourceManager.
            yarn = new MiniYARNCluster(name, recoverableNodes ? 0 : nodeManagers, 1, 1);
            yarn.init(conf);
            yarn.start();
            List<RecoverableNodeManager> own = null;
            if (recoverableNodes) {
                own = startRecoverableNodes(yarn, nodeManagers, workDir);
                awaitRegistered(yarn, nodeManagers, name);
            } else if (!yarn.waitForNodeManagersToConnect(60_000)) {
                throw new IOException("NodeManagers of " + name + " did not register within 60 s");
            }
            Configuration live = new Configuration(yarn.getConfig());
            MiniCourierCluster cluster = new MiniCourierCluster(service, dfs, yarn, live,
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0), own);
            LOG.info("Mini cluster {} up in {} ms: {} NodeManagers running {}, shuffle ports {}", name,
                    cluster.startMillis, nodeManagers, service.className(), cluster.shufflePorts());
            return cluster;
        } catch (IOException | InterruptedException | RuntimeException e) {
            stopQuietly(yarn, dfs);
            throw e;
        } catch (Exception e) {
            stopQuietly(yarn, dfs);
            throw new IOException("mini cluster " + name + " failed to start", e);
        }
    }

    /**
     * Starts the NodeManagers in parallel (each takes seconds, most of it waiting on the ResourceManager and the
     * web server), and stops those that started if one fails.
     */
    private static List<RecoverableNodeManager> startRecoverableNodes(MiniYARNCluster yarn, int n, Path workDir)
            throws IOException, InterruptedException {
        ExecutorService starters = Executors.newFixedThreadPool(n, r -> {
            Thread t = new Thread(r, "nm-starter");
            t.setDaemon(true);
            return t;
        });
        List<Future<RecoverableNodeManager>> starts = new ArrayList<>();
        ClusterPorts ports = new ClusterPorts();
        try {
            for (int i = 0; i < n; i++) {
                final int index = i;
                starts.add(starters.submit(() -> RecoverableNodeManager.start(index, yarn.getConfig(),
                        yarn.getResourceManager(), workDir.resolve("nm-" + index), ports)));
            }
            List<RecoverableNodeManager> nodes = new ArrayList<>();
            IOException failure = null;
            for (Future<RecoverableNodeManager> f : starts) {
                try {
                    nodes.add(f.get(5, TimeUnit.MINUTES));
                } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                    if (failure == null) {
                        // The cause's text in the message: a test report's summary shows only the top line.
                        Throwable cause = e.getCause() != null ? e.getCause() : e;
                        failure = new IOException("a NodeManager failed to start: " + cause, e);
                    }
                }
            }
            if (failure != null) {
                for (RecoverableNodeManager nm : nodes) {
                    nm.kill();
                }
                throw failure;
            }
            return nodes;
        } finally {
            starters.shutdownNow();
        }
    }

    private static void awaitRegistered(MiniYARNCluster yarn, int n, String name)
            throws IOException, InterruptedException {
        long deadline = System.currentTimeMillis() + 60_000;
        while (yarn.getResourceManager().getRMContext().getRMNodes().size() < n) {
            if (System.currentTimeMillis() > deadline) {
                throw new IOException("NodeManagers of " + name + " did not register within 60 s");
            }
            Thread.sleep(100); // the ResourceManager offers no registration callback
        }
    }

    /** The YARN settings every mini cluster here runs with, for {@code service} on the NodeManagers. */
    static void configureYarn(Configuration conf, NodeShuffleService service) {
        conf.set("mapreduce.framework.name", "yarn");
        // MiniMRYarnCluster normally sets these two; MiniYARNCluster does not.
        conf.set("yarn.app.mapreduce.am.staging-dir", "/tmp/hadoop-yarn/staging");
        conf.set("mapreduce.jobtracker.address", "test");
        conf.set(YarnConfiguration.NM_CONTAINER_EXECUTOR,
                "org.apache.hadoop.yarn.server.nodemanager.DefaultContainerExecutor");
        conf.setBoolean("mapreduce.job.ubertask.enable", false);
        conf.setBoolean(YarnConfiguration.NM_PMEM_CHECK_ENABLED, false);
        conf.setBoolean(YarnConfiguration.NM_VMEM_CHECK_ENABLED, false);
        conf.set(YarnConfiguration.NM_AUX_SERVICES, SHUFFLE);
        conf.set("yarn.nodemanager.aux-services." + SHUFFLE + ".class", service.className());
        conf.setInt(ShuffleHandler.SHUFFLE_PORT_CONFIG_KEY, 0);
        // Courier: every proxy listens on its node's (ephemeral) shuffle port plus the configured offset.
        conf.setInt("courier.proxy.port", -1);
        // MiniYARNCluster overwrites yarn.nodemanager.resource.memory-mb with this key.
        conf.setInt("yarn.minicluster.yarn.nodemanager.resource.memory-mb", 1024);
        conf.setInt(YarnConfiguration.RM_SCHEDULER_MINIMUM_ALLOCATION_MB, 256);
        // One container per NodeManager heartbeat: the maps of a job spread over all NodeManagers.
        conf.setBoolean("yarn.scheduler.capacity.per-node-heartbeat.multiple-assignments-enabled", false);
        conf.setInt("yarn.app.mapreduce.am.resource.mb", 512);
        conf.set("yarn.app.mapreduce.am.command-opts", "-Xmx400m");
        conf.setInt("mapreduce.map.memory.mb", 512);
        conf.setInt("mapreduce.reduce.memory.mb", 512);
        // The client notices a finished job within 0.5 s instead of 5 s.
        conf.setInt("mapreduce.client.completion.pollinterval", 500);
        // Faster container and NodeManager shutdown.
        conf.setLong("yarn.nodemanager.sleep-delay-before-sigkill.ms", 0);
        conf.setLong("yarn.nodemanager.process-kill-wait.ms", 0);
        // A nearly full disk must not make the NodeManagers unhealthy in the middle of a test.
        conf.setFloat("yarn.nodemanager.disk-health-checker.max-disk-utilization-per-disk-percentage", 99.5f);
    }

    /** Milliseconds from {@link #start} until all NodeManagers had registered. */
    public long startMillis() {
        return startMillis;
    }

    /** The service class the NodeManagers run. */
    public NodeShuffleService service() {
        return service;
    }

    /** The live cluster configuration (HDFS and the ResourceManager addresses). A copy. */
    public Configuration conf() {
        return new Configuration(conf);
    }

    /** The cluster's HDFS. */
    public FileSystem fileSystem() throws IOException {
        return dfs.getFileSystem();
    }

    /**
     * A configuration for a job on this cluster; with {@code courier} the reducers use Courier's shuffle plugin,
     * otherwise Hadoop's stock shuffle (HTTP fetches from the same NodeManager service).
     */
    public JobConf jobConf(boolean courier) {
        JobConf job = new JobConf(conf);
        if (courier) {
            job.set(CONSUMER_KEY, COURIER_CONSUMER);
        } else {
            job.unset(CONSUMER_KEY);
        }
        return job;
    }

    /**
     * {@link #jobConf(boolean)} for a job whose shuffle is measured: no speculative attempts. On paced or loaded
     * links a reducer looks slow to the ApplicationMaster, which then starts a second attempt that fetches the
     * job's map outputs again (seen in a chaos run: 7.0 MB relayed for a 6.2 MB shuffle), so bytes, stalls and
     * shuffle times would depend on the speculator's timing rather than on the shuffle.
     */
    public JobConf measuredJobConf(boolean courier) {
        JobConf job = jobConf(courier);
        job.setMapSpeculativeExecution(false);
        job.setReduceSpeculativeExecution(false);
        return job;
    }

    /** Number of NodeManagers. */
    public int nodeManagerCount() {
        return nodeManagers().size();
    }

    private List<NodeManager> nodeManagers() {
        List<NodeManager> nms = new ArrayList<>();
        if (recoverable != null) {
            for (RecoverableNodeManager r : recoverable) {
                nms.add(r.nodeManager());
            }
            return nms;
        }
        for (int i = 0; ; i++) {
            NodeManager nm;
            try {
                nm = yarn.getNodeManager(i);
            } catch (ArrayIndexOutOfBoundsException e) {
                return nms;
            }
            if (nm == null) {
                return nms;
            }
            nms.add(nm);
        }
    }

    /** The NodeManager with index {@code i} (the current incarnation of a recoverable one). */
    public NodeManager nodeManager(int i) {
        return recoverable != null ? recoverable.get(i).nodeManager() : yarn.getNodeManager(i);
    }

    /**
     * NodeManager {@code i} of a cluster started with {@link #startRecoverable}, to kill or restart it.
     *
     * @throws IllegalStateException for a cluster of MiniYARNCluster's own NodeManagers
     */
    public RecoverableNodeManager recoverable(int i) {
        if (recoverable == null) {
            throw new IllegalStateException("this cluster was not started with recoverable NodeManagers");
        }
        return recoverable.get(i);
    }

    /** True while NodeManager {@code i} runs (false once it was stopped). */
    public boolean running(int i) {
        return nodeManager(i).getServiceState() == org.apache.hadoop.service.Service.STATE.STARTED;
    }

    /** The shuffle port NodeManager {@code i} advertises (the first int of its service metadata). */
    public int shufflePort(int i) {
        if (recoverable != null) {
            return recoverable.get(i).shufflePort(); // fixed, and known while the node is down
        }
        try {
            return ShuffleHandler.deserializeMetaData(serviceMetaData(i));
        } catch (IOException e) {
            throw new IllegalStateException("NodeManager " + i + " has unreadable " + SHUFFLE + " metadata", e);
        }
    }

    /** The raw {@code mapreduce_shuffle} service metadata of NodeManager {@code i} (a read-only duplicate). */
    public ByteBuffer serviceMetaData(int i) {
        ByteBuffer meta = nodeManager(i).getNMContext().getAuxServices().getMetaData().get(SHUFFLE);
        if (meta == null) {
            throw new IllegalStateException("NodeManager " + i + " has no " + SHUFFLE + " service metadata");
        }
        return meta.asReadOnlyBuffer();
    }

    /** Shuffle port of every NodeManager, by index. */
    public List<Integer> shufflePorts() {
        List<Integer> ports = new ArrayList<>();
        for (int i = 0; i < nodeManagers().size(); i++) {
            ports.add(shufflePort(i));
        }
        return ports;
    }

    /** Index of the NodeManager whose shuffle port is {@code port}, or -1. */
    public int nodeIndexOfShufflePort(int port) {
        List<Integer> ports = shufflePorts();
        return ports.indexOf(port);
    }

    /** NodeManager {@code i}'s local dirs ({@code yarn.nodemanager.local-dirs}). */
    public List<File> localDirs(int i) {
        return dirs(nodeManager(i).getConfig().getTrimmedStrings(YarnConfiguration.NM_LOCAL_DIRS));
    }

    /** NodeManager {@code i}'s container log dirs ({@code yarn.nodemanager.log-dirs}). */
    public List<File> logDirs(int i) {
        return dirs(nodeManager(i).getConfig().getTrimmedStrings(YarnConfiguration.NM_LOG_DIRS));
    }

    private static List<File> dirs(String[] uris) {
        List<File> dirs = new ArrayList<>();
        for (String d : uris) {
            dirs.add(new File(d.startsWith("file:") ? java.net.URI.create(d).getPath() : d));
        }
        return dirs;
    }

    /**
     * The {@code mapreduce_shuffle} service instance NodeManager {@code i} runs (the same object, in this JVM), for
     * its metrics. AuxServices keeps its service map private; reflection on a Hadoop class in the unnamed module
     * needs no JVM flags.
     */
    public AuxiliaryService auxService(int i) {
        AuxServices aux = nodeManager(i).getNMContext().getAuxServices();
        try {
            Field f = AuxServices.class.getDeclaredField("serviceMap");
            f.setAccessible(true);
            @SuppressWarnings("unchecked")
            Map<String, AuxiliaryService> services = (Map<String, AuxiliaryService>) f.get(aux);
            AuxiliaryService s = services.get(SHUFFLE);
            if (s == null) {
                throw new IllegalStateException("NodeManager " + i + " runs no " + SHUFFLE + " service: "
                        + services.keySet());
            }
            return s;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot reach the aux services of NodeManager " + i, e);
        }
    }

    /**
     * Stops YARN, then HDFS. The NodeManagers are stopped in parallel first: each one spends about 10 s in its
     * log handler's shutdown, which MiniYARNCluster would otherwise pay once per NodeManager.
     */
    @Override
    public void close() {
        long t0 = System.nanoTime();
        List<NodeManager> nms = nodeManagers();
        ExecutorService stopper = Executors.newFixedThreadPool(Math.max(1, nms.size()), r -> {
            Thread t = new Thread(r, "nm-stopper");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<?>> stops = new ArrayList<>();
            for (NodeManager nm : nms) {
                stops.add(stopper.submit(nm::stop));
            }
            for (Future<?> f : stops) {
                try {
                    f.get(120, TimeUnit.SECONDS);
                } catch (Exception e) {
                    LOG.warn("NodeManager stop failed", e);
                }
            }
        } finally {
            stopper.shutdownNow();
        }
        stopQuietly(yarn, dfs);
        LOG.info("Mini cluster stopped in {} ms", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
    }

    private static void stopQuietly(MiniYARNCluster yarn, MiniDFSCluster dfs) {
        if (yarn != null) {
            try {
                yarn.stop();
            } catch (RuntimeException e) {
                LOG.warn("MiniYARNCluster stop failed", e);
            }
        }
        if (dfs != null) {
            try {
                dfs.shutdown(true);
            } catch (RuntimeException e) {
                LOG.warn("MiniDFSCluster shutdown failed", e);
            }
        }
    }
}
