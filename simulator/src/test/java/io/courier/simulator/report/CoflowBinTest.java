package io.courier.simulator.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class CoflowBinTest {
    private static final double MB = 1048576.0;

    @Test
    void boundariesBelongToLongAndWide() {
        assertEquals(CoflowBin.SN, CoflowBin.of(5 * MB - 1, 49));
        assertEquals(CoflowBin.LN, CoflowBin.of(5 * MB, 49));
        assertEquals(CoflowBin.SW, CoflowBin.of(5 * MB - 1, 50));
        assertEquals(CoflowBin.LW, CoflowBin.of(5 * MB, 50));
        assertEquals(CoflowBin.SN, CoflowBin.of(1, 1));
    }

    @Test
    void megabyteIsTwoToTheTwenty() {
        assertEquals(5242880.0, CoflowBin.SHORT_BELOW_BYTES);
        // 5 decimal megabytes are short: the bins use binary MB like the trace.
        assertEquals(CoflowBin.SN, CoflowBin.of(5000000, 10));
    }
}
