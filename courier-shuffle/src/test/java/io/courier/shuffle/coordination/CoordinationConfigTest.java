package io.courier.shuffle.coordination;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CoordinationConfigTest {
    private static CoordinationConfig parse(String... keyValues) {
        Map<String, String> p = new HashMap<String, String>();
        for (int i = 0; i < keyValues.length; i += 2) {
            p.put(keyValues[i], keyValues[i + 1]);
        }
        return CoordinationConfig.fromProperties(p);
    }

    @Test
    void noAddressMeansNoCoordinatorAndNoStandby() {
        CoordinationConfig c = parse();
        assertFalse(c.coordinated());
        assertTrue(c.standbys().isEmpty());
        assertEquals(5_000, c.primaryProbeMillis());
        assertEquals(10_000, c.clientRestartMillis());
        assertEquals(3_000, parse(CoordinationConfig.CLIENT_RESTART, "3000").clientRestartMillis());
        assertThrows(IllegalArgumentException.class, () -> parse(CoordinationConfig.CLIENT_RESTART, "10"));
    }

    @Test
    void theAddressListsThePrimaryThenTheStandbys() {
        CoordinationConfig c = parse(CoordinationConfig.ADDRESS, " coord-a:17400 , coord-b:17401,[::1]:17402",
                CoordinationConfig.PRIMARY_PROBE, "2000");
        assertEquals("coord-a", c.coordinatorHost());
        assertEquals(17400, c.coordinatorPort());
        assertEquals(2, c.standbys().size());
        assertEquals("coord-b:17401", c.standbys().get(0).toString());
        assertEquals("::1", c.standbys().get(1).host());
        assertEquals(17402, c.standbys().get(1).port());
        assertEquals(2_000, c.primaryProbeMillis());
        assertEquals(2, c.withTimings(20, 600, 100).standbys().size(), "timings keep the standbys");
    }

    @Test
    void anUnknownKeyIsRefusedNamingItAndTheKnownOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> parse("courier.coordinator.adress", "coord-a:17400"));
        assertTrue(e.getMessage().contains("unknown setting 'courier.coordinator.adress'")
                && e.getMessage().contains(CoordinationConfig.ADDRESS), e.getMessage());
        for (String key : CoordinationConfig.KEYS) {
            assertFalse(parse(key, "").coordinated(), key + " is known (an empty value takes the default)");
        }
    }

    @Test
    void aBadEntryNamesTheKeyAndTheEntry() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> parse(CoordinationConfig.ADDRESS, "coord-a:17400,coord-b"));
        assertTrue(e.getMessage().contains(CoordinationConfig.ADDRESS) && e.getMessage().contains("'coord-b'"),
                e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> parse(CoordinationConfig.ADDRESS, "coord-a:17400", CoordinationConfig.PRIMARY_PROBE, "0"));
        assertTrue(e.getMessage().contains(CoordinationConfig.PRIMARY_PROBE), e.getMessage());
    }

    @Test
    void reportSuppressionHasDefaultsAndRefusesBadValuesNamingTheKey() {
        CoordinationConfig c = parse();
        assertEquals(0.01, c.reportTolerance(), 0.0);
        assertEquals(100, c.reportHeartbeatMillis());
        CoordinationConfig off = parse(CoordinationConfig.REPORT_TOLERANCE, "0", CoordinationConfig.REPORT_HEARTBEAT, "250");
        assertEquals(0.0, off.reportTolerance(), 0.0);
        assertEquals(250, off.reportHeartbeatMillis());
        assertEquals(0.0, off.withTimings(20, 600, 100).reportTolerance(), 0.0, "timings keep the tolerance");
        for (String bad : new String[] {"-0.1", "1.5", "NaN", "lots"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> parse(CoordinationConfig.REPORT_TOLERANCE, bad));
            assertTrue(e.getMessage().contains(CoordinationConfig.REPORT_TOLERANCE), e.getMessage());
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> parse(CoordinationConfig.REPORT_HEARTBEAT, "3000"));
        assertTrue(e.getMessage().contains(CoordinationConfig.REPORT_HEARTBEAT)
                && e.getMessage().contains(CoordinationConfig.ACK_TIMEOUT), e.getMessage());
    }
}
