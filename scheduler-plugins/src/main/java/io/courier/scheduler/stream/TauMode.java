package io.courier.scheduler.stream;

/** Which demotion threshold {@code τ_k} Stream's priority formula uses (SCHEDULERS.md §7, §15 item 6). */
public enum TauMode {
    /** [resolved] the highest queue's threshold {@code τ} for every level. */
    CONSTANT("constant"),
    /** Variant {@code STREAM_TAU_CURRENT_LEVEL}: {@code τ_k = τ·10^k} for the sub-coflow's current level k. */
    CURRENT_LEVEL("current-level");

    private final String parameterValue;

    TauMode(String parameterValue) {
        this.parameterValue = parameterValue;
    }

    /** The spelling used by the {@code tauMode} parameter. */
    public String parameterValue() {
        return parameterValue;
    }

    /** The mode spelled {@code value}; the message lists the valid spellings. */
    public static TauMode fromParameter(String value) {
        for (TauMode m : values()) {
            if (m.parameterValue.equals(value)) {
                return m;
            }
        }
        throw new IllegalArgumentException("parameter 'tauMode' of scheduler 'stream' must be constant or "
                + "current-level, got '" + value + "'");
    }
}
