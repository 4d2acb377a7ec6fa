package io.courier.coordinator.actors;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The most recent job ids of some kind (completed ones), at most {@code capacity}, the oldest forgotten first.
 * Owned by one actor; not thread-safe.
 */
final class RecentJobs {
    private final LinkedHashMap<String, Boolean> ids;

    RecentJobs(final int capacity) {
        this.ids = new LinkedHashMap<String, Boolean>() {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
                return size() > capacity;
            }
        };
    }

    void add(String job) {
        ids.put(job, Boolean.TRUE);
    }

    boolean contains(String job) {
        return ids.containsKey(job);
    }
}
