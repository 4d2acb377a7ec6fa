package io.courier.coordinator.actors;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** An immutable snapshot of the active coflows, by job id, in registration order. */
public final class CoflowTable {
    static final CoflowTable EMPTY = new CoflowTable(new LinkedHashMap<String, CoflowEntry>());

    private final Map<String, CoflowEntry> coflows;

    CoflowTable(Map<String, CoflowEntry> coflows) {
        this.coflows = Collections.unmodifiableMap(new LinkedHashMap<String, CoflowEntry>(coflows));
    }

    public Map<String, CoflowEntry> coflows() {
        return coflows;
    }

    public CoflowEntry get(String jobId) {
        return coflows.get(jobId);
    }
}
