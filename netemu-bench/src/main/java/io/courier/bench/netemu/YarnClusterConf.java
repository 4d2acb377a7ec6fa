package io.courier.bench.netemu;

import org.apache.hadoop.conf.Configuration;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The Hadoop configuration of the YARN cluster in the emulated network ({@code bench/netemu/yarn-cluster.sh}):
 * host 1 runs the NameNode and the ResourceManager next to its DataNode and NodeManager, every other host a
 * DataNode and a NodeManager. Every daemon binds and advertises its host's address (all namespaces share one
 * hostname, so names would not tell the hosts apart), the NodeManagers run Courier's {@code mapreduce_shuffle}
 * service (Hadoop's ShuffleHandler on 13562 plus the Courier proxy on 13563) and the jobs choose the shuffle with
 * the consumer-plugin key. The settings follow the proven mini cluster ({@code io.courier.it.MiniCourierCluster}):
 * 512 MB containers, one container per NodeManager heartbeat, memory checks off. Immutable.
 *
 * @param hosts        number of hosts (NodeManagers), host i has address {@code subnet.i}
 * @param subnet       first three octets, e.g. "10.202.0"
 * @param work         absolute work directory (HDFS and NodeManager dirs under {@code h<i>/})
 * @param appClassPath class path of the ApplicationMasters and tasks (the conf dir and the jar directory glob)
 * @param nmMemoryMb   memory each NodeManager offers to containers
 */
record YarnClusterConf(int hosts, String subnet, Path work, String appClassPath, int nmMemoryMb) {
    static final String COURIER_HANDLER = "io.courier.shuffle.nm.CourierShuffleHandler";
    static final String COURIER_CONSUMER = "io.courier.shuffle.reduce.CourierShuffleConsumer";
    static final String CONSUMER_KEY = "mapreduce.job.reduce.shuffle.consumer.plugin.class";
    static final int NAMENODE_PORT = 8020;
    /** JVM options of the ApplicationMasters and tasks: Hadoop's JDK 17 flags, IPv4 sockets. */
    static final String TASK_OPENS = "-XX:+IgnoreUnrecognizedVMOptions --add-opens=java.base/java.io=ALL-UNNAMED"
            + " --add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.lang.reflect=ALL-UNNAMED"
            + " --add-opens=java.base/java.math=ALL-UNNAMED --add-opens=java.base/java.net=ALL-UNNAMED"
            + " --add-opens=java.base/java.text=ALL-UNNAMED --add-opens=java.base/java.util=ALL-UNNAMED"
            + " --add-opens=java.base/java.util.concurrent=ALL-UNNAMED"
            + " --add-opens=java.base/java.util.zip=ALL-UNNAMED --add-opens=java.base/sun.security.util=ALL-UNNAMED"
            + " --add-opens=java.base/sun.security.x509=ALL-UNNAMED -Djava.net.preferIPv4Stack=true";

    YarnClusterConf {
        if (hosts < 2 || hosts > 250) {
            throw new IllegalArgumentException("hosts must be 2..250, got " + hosts);
        }
        if (!subnet.matches("\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}")) {
            throw new IllegalArgumentException("subnet must be three octets like 10.202.0, got '" + subnet + "'");
        }
        if (!work.isAbsolute()) {
            throw new IllegalArgumentException("work directory must be absolute (tasks run elsewhere): " + work);
        }
        if (nmMemoryMb < 1024) {
            throw new IllegalArgumentException("NodeManager memory must be >= 1024 MB (AM + one task), got "
                    + nmMemoryMb);
        }
    }

    String ip(int host) {
        return subnet + "." + host;
    }

    String master() {
        return ip(1);
    }

    /** Conf directory of host {@code h}'s daemons (host 1's also serves the NameNode, ResourceManager, driver). */
    Path confDir(int h) {
        return work.resolve("conf").resolve("h" + h);
    }

    Path hostDir(int h) {
        return work.resolve("h" + h);
    }

    Map<String, String> core(int h) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("fs.defaultFS", "hdfs://" + master() + ":" + NAMENODE_PORT);
        m.put("hadoop.tmp.dir", hostDir(h).resolve("tmp").toString());
        m.put("fs.permissions.umask-mode", "000");
        return m;
    }

    Map<String, String> hdfs(int h) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("dfs.replication", "1");
        m.put("dfs.permissions.enabled", "false");
        m.put("dfs.namenode.name.dir", work.resolve("nn").toUri().toString());
        m.put("dfs.namenode.rpc-address", master() + ":" + NAMENODE_PORT);
        m.put("dfs.namenode.http-address", master() + ":9870");
        m.put("dfs.namenode.safemode.extension", "0");
        // No DNS in the namespaces: DataNodes register by address, and the NameNode must not insist on a name.
        m.put("dfs.namenode.datanode.registration.ip-hostname-check", "false");
        m.put("dfs.datanode.data.dir", hostDir(h).resolve("dn").toUri().toString());
        m.put("dfs.datanode.hostname", ip(h));
        m.put("dfs.datanode.address", ip(h) + ":9866");
        m.put("dfs.datanode.http.address", ip(h) + ":9864");
        m.put("dfs.datanode.ipc.address", ip(h) + ":9867");
        m.put("dfs.heartbeat.interval", "1");
        return m;
    }

    Map<String, String> yarn(int h) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("yarn.resourcemanager.hostname", master());
        m.put("yarn.nodemanager.hostname", ip(h));
        m.put("yarn.nodemanager.address", ip(h) + ":45454");
        m.put("yarn.nodemanager.localizer.address", ip(h) + ":8040");
        m.put("yarn.nodemanager.webapp.address", ip(h) + ":8042");
        m.put("yarn.nodemanager.local-dirs", hostDir(h).resolve("nm-local").toString());
        m.put("yarn.nodemanager.log-dirs", hostDir(h).resolve("nm-logs").toString());
        m.put("yarn.nodemanager.container-executor.class",
                "org.apache.hadoop.yarn.server.nodemanager.DefaultContainerExecutor");
        m.put("yarn.nodemanager.aux-services", "mapreduce_shuffle");
        m.put("yarn.nodemanager.aux-services.mapreduce_shuffle.class", COURIER_HANDLER);
        // The ports the connection counts attribute to each mode (Mode.servicePort).
        m.put("mapreduce.shuffle.port", String.valueOf(Mode.STOCK.servicePort()));
        m.put("courier.proxy.port", String.valueOf(Mode.COURIER.servicePort()));
        m.put("yarn.nodemanager.resource.memory-mb", String.valueOf(nmMemoryMb));
        m.put("yarn.nodemanager.resource.cpu-vcores", "8");
        m.put("yarn.scheduler.minimum-allocation-mb", "256");
        m.put("yarn.nodemanager.pmem-check-enabled", "false");
        m.put("yarn.nodemanager.vmem-check-enabled", "false");
        // One container per NodeManager heartbeat: the maps of a job spread over all NodeManagers.
        m.put("yarn.scheduler.capacity.per-node-heartbeat.multiple-assignments-enabled", "false");
        m.put("yarn.nodemanager.disk-health-checker.max-disk-utilization-per-disk-percentage", "99.5");
        m.put("yarn.nodemanager.sleep-delay-before-sigkill.ms", "0");
        m.put("yarn.nodemanager.process-kill-wait.ms", "0");
        m.put("yarn.nodemanager.delete.debug-delay-sec", "0");
        m.put("yarn.log-aggregation-enable", "false");
        m.put("yarn.application.classpath", appClassPath);
        return m;
    }

    Map<String, String> mapred() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("mapreduce.framework.name", "yarn");
        m.put("yarn.app.mapreduce.am.staging-dir", "/tmp/hadoop-yarn/staging");
        m.put("mapreduce.application.classpath", appClassPath);
        m.put("mapreduce.job.ubertask.enable", "false");
        m.put("yarn.app.mapreduce.am.resource.mb", "512");
        m.put("yarn.app.mapreduce.am.command-opts", "-Xmx384m " + TASK_OPENS);
        m.put("mapreduce.map.memory.mb", "512");
        m.put("mapreduce.reduce.memory.mb", "512");
        m.put("mapreduce.map.java.opts", "-Xmx384m " + TASK_OPENS);
        m.put("mapreduce.reduce.java.opts", "-Xmx384m " + TASK_OPENS);
        // The client notices a finished job within 0.5 s instead of 5 s.
        m.put("mapreduce.client.completion.pollinterval", "500");
        // Reducers start when every map is done: a reducer's shuffle time is the shuffle, not the wait for maps.
        m.put("mapreduce.job.reduce.slowstart.completedmaps", "1.0");
        return m;
    }

    /** Writes {@code core,hdfs,yarn,mapred}-site.xml and log4j.properties into every host's conf dir. */
    void writeAll() throws IOException {
        for (int h = 1; h <= hosts; h++) {
            Path dir = confDir(h);
            Files.createDirectories(dir);
            writeXml(dir.resolve("core-site.xml"), core(h));
            writeXml(dir.resolve("hdfs-site.xml"), hdfs(h));
            writeXml(dir.resolve("yarn-site.xml"), yarn(h));
            writeXml(dir.resolve("mapred-site.xml"), mapred());
            Files.writeString(dir.resolve("log4j.properties"), LOG4J, StandardCharsets.UTF_8);
            Files.createDirectories(hostDir(h));
        }
    }

    static void writeXml(Path file, Map<String, String> settings) throws IOException {
        Configuration c = new Configuration(false);
        for (Map.Entry<String, String> e : settings.entrySet()) {
            c.set(e.getKey(), e.getValue(), "yarn-cluster.sh");
        }
        try (OutputStream out = Files.newOutputStream(file)) {
            c.writeXml(out);
        }
    }

    /** Daemon logging: one file per daemon (hadoop.log.dir/hadoop.log.file set on its command line), INFO. */
    static final String LOG4J = String.join("\n",
            "hadoop.log.dir=.",
            "hadoop.log.file=hadoop.log",
            "log4j.rootLogger=INFO,F",
            "log4j.appender.F=org.apache.log4j.FileAppender",
            "log4j.appender.F.File=${hadoop.log.dir}/${hadoop.log.file}",
            "log4j.appender.F.layout=org.apache.log4j.PatternLayout",
            "log4j.appender.F.layout.ConversionPattern=%d{ISO8601} %p %c{2}: %m%n",
            "log4j.logger.org.apache.hadoop.hdfs.StateChange=WARN",
            "log4j.logger.org.apache.hadoop.hdfs.server.namenode.FSNamesystem.audit=WARN",
            "log4j.logger.org.apache.hadoop.util.NativeCodeLoader=ERROR",
            "");
}
