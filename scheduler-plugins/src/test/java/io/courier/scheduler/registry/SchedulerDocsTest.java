package io.courier.scheduler.registry;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Keeps {@code docs/schedulers.md} true: every registered scheduler has a section, and every parameter
 * of it is named there in backquotes.
 */
class SchedulerDocsTest {

    @Test
    void everySchedulerAndParameterIsDocumented() throws IOException {
        Path doc = Paths.get("..", "docs", "schedulers.md");
        assertTrue(Files.exists(doc), "docs/schedulers.md is missing (looked at " + doc.toAbsolutePath() + ")");
        String text = new String(Files.readAllBytes(doc), StandardCharsets.UTF_8);
        SchedulerRegistry registry = SchedulerRegistry.standard();
        List<String> missing = new ArrayList<>();
        for (String name : registry.names()) {
            int section = text.indexOf("(`" + name + "`)");
            if (section < 0) {
                missing.add("section for scheduler '" + name + "' (a heading containing (`" + name + "`))");
                continue;
            }
            int next = text.indexOf("\n## ", section);
            String body = text.substring(section, next < 0 ? text.length() : next);
            for (ParameterSpec p : registry.factory(name).parameters()) {
                if (!body.contains("`" + p.name() + "`")) {
                    missing.add("parameter `" + p.name() + "` in the section of '" + name + "'");
                }
            }
        }
        assertTrue(missing.isEmpty(), "docs/schedulers.md lacks: " + missing);
    }
}
