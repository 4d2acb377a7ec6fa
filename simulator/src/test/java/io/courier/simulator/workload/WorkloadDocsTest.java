package io.courier.simulator.workload;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Keeps the "Simulator workloads" section of {@code docs/configuration.md} in step with the spec keys. */
class WorkloadDocsTest {
    @Test
    void everySpecKeyAndDistributionIsDocumented() throws IOException {
        Path doc = Paths.get("..", "docs", "configuration.md");
        assertTrue(Files.exists(doc), "docs/configuration.md is missing (looked at " + doc.toAbsolutePath() + ")");
        String text = new String(Files.readAllBytes(doc), StandardCharsets.UTF_8);
        int at = text.indexOf("## Simulator workloads");
        assertTrue(at >= 0, "docs/configuration.md has no '## Simulator workloads' section");
        String section = text.substring(at);
        List<String> missing = new ArrayList<>();
        List<String> names = new ArrayList<>(SyntheticMapReduce.KEYS);
        names.add("fixed:size=S");
        names.add("uniform:min=S:max=S");
        names.add("lognormal:mean=S:sigma=X");
        names.add("pareto:mean=S:alpha=X");
        names.add("poisson:rate=R");
        names.add("batch");
        names.add("uniform:A-B[:seed=N]");
        names.add("uniform-real:A-B[:seed=N]");
        names.add("fixed:W");
        for (String n : names) {
            if (!section.contains("`" + n + "`")) {
                missing.add(n);
            }
        }
        assertTrue(missing.isEmpty(), "docs/configuration.md, Simulator workloads, lacks: " + missing);
        // The documented example must parse.
        int ex = section.indexOf("```\n") + 4;
        SyntheticMapReduce.parse(section.substring(ex, section.indexOf("\n```", ex)));
    }
}
