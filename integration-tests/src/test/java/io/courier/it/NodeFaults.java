package io.courier.it;

import java.io.File;
import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

import org.apache.hadoop.mapred.ShuffleHandler;
import org.apache.hadoop.mapreduce.security.token.JobTokenSecretManager;
import org.apache.hadoop.security.token.SecretManager;
import org.apache.hadoop.yarn.api.records.ContainerId;

/**
 * What the node-loss tests look at on the mini cluster's NodeManagers while a job runs: which nodes hold finished
 * map outputs, which runs the ApplicationMaster, what the reducers logged, whether a shuffle service knows a job's
 * secret. Stateless; reads the file system and the NodeManagers of this JVM.
 */
final class NodeFaults {
    private NodeFaults() {
    }

    /**
     * Finished map outputs of job {@code jobId} (a map writes {@code file.out.index} after {@code file.out}) on each
     * running NodeManager: node index to map task ids ({@code task_..._m_000003}).
     */
    static TreeMap<Integer, Set<String>> finishedMaps(MiniCourierCluster cluster, String jobId) {
        String suffix = jobId.substring("job_".length());
        String app = "application_" + suffix;
        String prefix = "attempt_" + suffix + "_m_";
        TreeMap<Integer, Set<String>> byNode = new TreeMap<>();
        for (int i = 0; i < cluster.nodeManagerCount(); i++) {
            if (!cluster.running(i)) {
                continue;
            }
            for (File local : cluster.localDirs(i)) {
                File[] users = new File(local, "usercache").listFiles();
                if (users == null) {
                    continue;
                }
                for (File user : users) {
                    File output = new File(user, "appcache" + File.separator + app + File.separator + "output");
                    File[] attempts = output.listFiles((d, name) -> name.startsWith(prefix));
                    if (attempts == null) {
                        continue;
                    }
                    for (File a : attempts) {
                        if (new File(a, "file.out.index").isFile()) {
                            String attempt = a.getName();
                            byNode.computeIfAbsent(i, k -> new TreeSet<>()).add(
                                    "task_" + attempt.substring("attempt_".length(), attempt.lastIndexOf('_')));
                        }
                    }
                }
            }
        }
        return byNode;
    }

    /** Number of distinct maps in {@code byNode}. */
    static int mapCount(TreeMap<Integer, Set<String>> byNode) {
        Set<String> all = new TreeSet<>();
        byNode.values().forEach(all::addAll);
        return all.size();
    }

    /** True if NodeManager {@code i} runs the ApplicationMaster container (container 1) of job {@code jobId}. */
    static boolean runsApplicationMaster(MiniCourierCluster cluster, int i, String jobId) {
        String app = "application_" + jobId.substring("job_".length());
        for (ContainerId c : cluster.nodeManager(i).getNMContext().getContainers().keySet()) {
            if (c.getApplicationAttemptId().getApplicationId().toString().equals(app)
                    && (c.getContainerId() & ContainerId.CONTAINER_ID_BITMASK) == 1) {
                return true;
            }
        }
        return false;
    }

    /** Lines containing {@code text} in the {@code syslog} files of job {@code jobId}'s containers, on any node. */
    static List<String> containerLogLines(MiniCourierCluster cluster, String jobId, String text) throws IOException {
        String app = "application_" + jobId.substring("job_".length());
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < cluster.nodeManagerCount(); i++) {
            for (File dir : cluster.logDirs(i)) {
                File appDir = new File(dir, app);
                if (!appDir.isDirectory()) {
                    continue;
                }
                try (Stream<java.nio.file.Path> files = Files.walk(appDir.toPath(), 2)) {
                    for (java.nio.file.Path f : (Iterable<java.nio.file.Path>) files::iterator) {
                        String name = f.getFileName().toString();
                        if (!name.equals("syslog") && !name.equals("syslog.shuffle")) {
                            continue;
                        }
                        for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
                            if (line.contains(text)) {
                                lines.add(line);
                            }
                        }
                    }
                } catch (java.io.UncheckedIOException | java.nio.file.NoSuchFileException e) {
                    // a container's directory vanished while it was read: its lines are not needed
                } catch (java.nio.charset.MalformedInputException e) {
                    // a log line being written: read it next time
                }
            }
        }
        return lines;
    }

    /**
     * True if the {@code mapreduce_shuffle} service of NodeManager {@code i} holds the shuffle secret of
     * {@code jobId}: the secret Courier's proxy checks fetches against ({@code JobTokenSecrets} reads the same
     * manager). ShuffleHandler keeps the manager in a protected field; reflection on a class of the unnamed module.
     */
    static boolean knowsJobSecret(MiniCourierCluster cluster, int i, String jobId) {
        try {
            Field f = ShuffleHandler.class.getDeclaredField("secretManager");
            f.setAccessible(true);
            JobTokenSecretManager m = (JobTokenSecretManager) f.get(cluster.auxService(i));
            return m != null && m.retrieveTokenSecret(jobId) != null;
        } catch (SecretManager.InvalidToken e) {
            return false;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot read ShuffleHandler's secret manager", e);
        }
    }
}
