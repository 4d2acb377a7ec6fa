package io.courier.shuffle.proxy;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The per-peer connection table stays bounded whatever ids peers declare, and loses no count. */
class PeerConnectionCountsTest {
    @Test
    void idsBeyondTheCapAreCountedTogether() {
        PeerConnectionCounts c = new PeerConnectionCounts();
        int ids = PeerConnectionCounts.MAX_PEERS + 500;
        for (int i = 0; i < ids; i++) {
            c.add("invented-" + i + ":1");
        }
        c.add("invented-0:1");
        Map<String, Long> m = c.snapshot();
        assertEquals(PeerConnectionCounts.MAX_PEERS + 1, m.size());
        assertEquals(500L, m.get(PeerConnectionCounts.OTHER_PEERS));
        assertEquals(2L, m.get("invented-0:1"), "a known id is still counted as itself");
        assertEquals(ids + 1L, m.values().stream().mapToLong(Long::longValue).sum());
    }
}
