package io.courier.simulator.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SchedulerSpecTest {
    @Test
    void splitsOnCommasOutsideParentheses() {
        List<SchedulerSpec> l = SchedulerSpec.parseList("fair, aalo(firstThreshold=4194304, epoch=1) ,varys()");
        assertEquals(3, l.size());
        assertEquals(new SchedulerSpec("fair", Collections.<String, String>emptyMap()), l.get(0));
        Map<String, String> p = new LinkedHashMap<>();
        p.put("firstThreshold", "4194304");
        p.put("epoch", "1");
        assertEquals(new SchedulerSpec("aalo", p), l.get(1));
        assertEquals(Arrays.asList("firstThreshold", "epoch"), Arrays.asList(l.get(1).parameters().keySet().toArray()));
        assertEquals("aalo(firstThreshold=4194304,epoch=1)", l.get(1).label());
        assertEquals("varys", l.get(2).label());
        assertTrue(l.get(2).parameters().isEmpty());
    }

    @Test
    void singleEntry() {
        assertEquals(Collections.singletonList(new SchedulerSpec("sincronia", Collections.singletonMap("period", "1"))),
                SchedulerSpec.parseList("sincronia(period=1)"));
    }

    @Test
    void malformedListsNameTheProblem() {
        assertMessage("fair,,varys", "empty entry in scheduler list 'fair,,varys'");
        assertMessage("fair,", "empty entry in scheduler list 'fair,'");
        assertMessage("aalo(epoch=1", "'(' without ')' in scheduler list 'aalo(epoch=1'");
        assertMessage("aalo)", "')' without '(' in scheduler list 'aalo)'");
        assertMessage("aalo((epoch=1))", "nested '(' in scheduler list 'aalo((epoch=1))'");
        assertMessage("aalo(epoch=1)x", "scheduler entry 'aalo(epoch=1)x' has text after ')'");
        assertMessage("aalo(epoch)", "scheduler entry 'aalo(epoch)': parameter 'epoch' is not key=value");
        assertMessage("aalo(epoch=)", "scheduler entry 'aalo(epoch=)': parameter 'epoch=' is not key=value");
        assertMessage("aalo(epoch=1,epoch=2)", "scheduler entry 'aalo(epoch=1,epoch=2)' sets parameter 'epoch' twice");
        assertMessage("(epoch=1)", "scheduler entry without a name in list '(epoch=1)'");
        assertMessage("fa ir", "scheduler name 'fa ir' in list 'fa ir' contains ' '");
    }

    private static void assertMessage(String list, String message) {
        UsageException e = assertThrows(UsageException.class, () -> SchedulerSpec.parseList(list));
        assertEquals(message, e.getMessage());
    }
}
