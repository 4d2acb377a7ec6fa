package io.courier.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.spi.ToolProvider;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The shaded jars an operator installs are complete: every class of Courier's own that a jar carries finds, in the
 * same jar, every Courier class (and relocated Netty class) it refers to. The jars are filtered by hand-written
 * include lists (the task jar must stay free of Netty), so a class added on the task side and not listed would
 * otherwise only show as a {@code NoClassDefFoundError} in a real reduce task: the mini cluster runs on the class
 * path, not on these jars. Checked with the JDK's {@code jdeps}.
 */
@Timeout(120)
class ShadedJarsTest {

    @Test
    void theTaskJarCarriesEveryCourierClassItsClassesUse() throws IOException {
        assertSelfContained(jar("-task.jar"));
    }

    @Test
    void theNodeManagerJarCarriesEveryCourierClassItsClassesUse() throws IOException {
        assertSelfContained(jar("-nodemanager.jar"));
    }

    private static void assertSelfContained(Path jar) {
        Optional<ToolProvider> jdeps = ToolProvider.findFirst("jdeps");
        Assumptions.assumeTrue(jdeps.isPresent(), "this JDK has no jdeps tool; the shaded jars were not checked");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int rc = jdeps.get().run(new PrintWriter(out), new PrintWriter(err), "--multi-release", "17",
                "-verbose:class", jar.toString());
        assertEquals(0, rc, () -> "jdeps failed on " + jar + ": " + err);
        List<String> missing = new ArrayList<>();
        for (String line : out.toString().split("\n")) {
            // "   io.courier.X -> io.courier.Y   not found": a Courier class refers to a Courier or relocated class the
            // jar lacks. Hadoop, SLF4J and Netty's own optional dependencies are provided elsewhere or not needed.
            String t = line.trim();
            if (t.startsWith("io.courier.") && !t.startsWith("io.courier.shaded.") && t.endsWith("not found")
                    && t.contains("-> io.courier.")) {
                missing.add(t.replaceAll("\\s+", " "));
            }
        }
        assertTrue(out.toString().contains("io.courier."), () -> "jdeps saw no Courier class in " + jar);
        assertTrue(missing.isEmpty(), () -> jar.getFileName() + " lacks classes its own classes use (add them to the"
                + " jar's includes in courier-shuffle/pom.xml):\n" + String.join("\n", missing));
    }

    private static Path jar(String suffix) throws IOException {
        String dir = System.getProperty("courier.shaded.jars.dir");
        Assumptions.assumeTrue(dir != null, "courier.shaded.jars.dir is not set (run through Maven)");
        Path target = Paths.get(dir);
        Assumptions.assumeTrue(Files.isDirectory(target),
                () -> target + " does not exist: courier-shuffle not packaged");
        List<Path> found = new ArrayList<>();
        try (DirectoryStream<Path> s = Files.newDirectoryStream(target, "courier-shuffle-*" + suffix)) {
            s.forEach(found::add);
        }
        Assumptions.assumeTrue(!found.isEmpty(), () -> "no courier-shuffle-*" + suffix + " in " + target
                + ": courier-shuffle not packaged");
        assertEquals(1, found.size(), () -> "more than one shaded jar in " + target + ": " + found);
        return found.get(0);
    }
}
