package io.courier.shuffle.coordination;

import io.courier.scheduler.model.CoflowId;
import io.courier.scheduler.model.Decision;
import io.courier.scheduler.model.FlowId;
import io.courier.shuffle.proxy.schedule.FlowBinding;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** When a new plan counts as the one installed already (and so is not re-applied). */
class SenderPlanTest {
    private static final List<FlowBinding> BINDINGS = Arrays.asList(new FlowBinding(FlowId.of(1), "a", "r1"),
            new FlowBinding(FlowId.of(2), "b", "r1"));

    private static Map<String, String> settings(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    private static SenderPlan order(List<CoflowId> order, Map<String, String> settings) {
        Map<FlowId, Integer> priorities = new HashMap<>();
        priorities.put(FlowId.of(1), 0);
        priorities.put(FlowId.of(2), 1);
        return SenderPlan.of(Decision.ofOrder(order, priorities), BINDINGS, settings);
    }

    @Test
    void plansAskingTheSameSettingsAreTheSameWhateverTheirOrder() {
        SenderPlan p = order(Arrays.asList(CoflowId.of(1), CoflowId.of(2)), settings("a->r1", "p0", "b->r1", "p1"));
        SenderPlan q = order(Arrays.asList(CoflowId.of(2), CoflowId.of(1)), settings("b->r1", "p1", "a->r1", "p0"));
        assertTrue(p.asksSameAs(q), "settings by value; the coflow order is informational");
        assertTrue(q.asksSameAs(p));
        assertTrue(SenderPlan.NONE.asksSameAs(SenderPlan.NONE));
    }

    @Test
    void anotherSettingTypeOrNoPlanDiffers() {
        SenderPlan p = order(Arrays.asList(CoflowId.of(1), CoflowId.of(2)), settings("a->r1", "p0", "b->r1", "p1"));
        assertFalse(p.asksSameAs(order(Collections.singletonList(CoflowId.of(1)),
                settings("a->r1", "p0", "b->r1", "p2"))));
        assertFalse(p.asksSameAs(order(Collections.singletonList(CoflowId.of(1)), settings("a->r1", "p0"))));
        Map<FlowId, Double> rates = new HashMap<>();
        rates.put(FlowId.of(1), 1.0);
        rates.put(FlowId.of(2), 2.0);
        SenderPlan r = SenderPlan.of(Decision.ofRates(rates), BINDINGS, settings("a->r1", "p0", "b->r1", "p1"));
        assertFalse(p.asksSameAs(r), "same settings, other decision type");
        assertFalse(p.asksSameAs(SenderPlan.NONE));
        assertFalse(SenderPlan.NONE.asksSameAs(p));
        assertFalse(p.asksSameAs(null), "nothing installed yet");
    }
}
