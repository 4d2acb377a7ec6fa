package io.courier.simulator.cli;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Scheduler parameters the simulator sets differently from the scheduler's own default, each with the
 * reason. A parameter the user gives explicitly (e.g. {@code aalo(epoch=0.01)}) always wins. The live
 * coordinator does not use this table: the reasons are properties of the fluid model.
 */
public final class SimulationDefaults {
    /** One override: {@code scheduler}'s {@code parameter} becomes {@code value} in the simulator, because {@code reason}. */
    public static final class Setting {
        private final String scheduler;
        private final String parameter;
        private final String value;
        private final String reason;

        public Setting(String scheduler, String parameter, String value, String reason) {
            this.scheduler = scheduler;
            this.parameter = parameter;
            this.value = value;
            this.reason = reason;
        }

        public String scheduler() {
            return scheduler;
        }

        public String parameter() {
            return parameter;
        }

        public String value() {
            return value;
        }

        public String reason() {
            return reason;
        }

        @Override
        public String toString() {
            return scheduler + "(" + parameter + "=" + value + "): " + reason;
        }
    }

    private final List<Setting> overrides;

    public SimulationDefaults(List<Setting> overrides) {
        this.overrides = Collections.unmodifiableList(new ArrayList<>(overrides));
    }

    /** The simulator's table. */
    public static SimulationDefaults standard() {
        return new SimulationDefaults(Arrays.asList(
                new Setting("aalo", "epoch", "Infinity",
                        "in a fluid model Aalo's allocation changes only at arrivals, completions and queue-threshold"
                        + " crossings, and Aalo is called at all of them anyway; periodic re-evaluation every"
                        + " 10 ms would only add scheduler calls that return the same rates")));
    }

    public List<Setting> overrides() {
        return overrides;
    }

    /** The overrides of one scheduler the user did not set in {@code given}, in table order. */
    public List<Setting> applicable(String scheduler, Map<String, String> given) {
        List<Setting> out = new ArrayList<>();
        for (Setting o : overrides) {
            if (o.scheduler.equals(scheduler) && !given.containsKey(o.parameter)) {
                out.add(o);
            }
        }
        return out;
    }

    /** {@code given} plus the applicable overrides. */
    public Map<String, String> apply(String scheduler, Map<String, String> given) {
        Map<String, String> out = new LinkedHashMap<>(given);
        for (Setting o : applicable(scheduler, given)) {
            out.put(o.parameter, o.value);
        }
        return out;
    }
}
