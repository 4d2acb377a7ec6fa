package io.courier.simulator.workload;

/**
 * A workload, weight or distribution spec that cannot be used: unknown key, malformed number, empty range or
 * impossible combination. The message names the offending key and value; {@link #key()} gives the key alone
 * so that a CLI can point at it.
 */
public final class WorkloadSpecException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final String key;

    public WorkloadSpecException(String key, String problem) {
        super(key.isEmpty() ? problem : "'" + key + "': " + problem);
        this.key = key;
    }

    /** The spec key (or spec name, e.g. {@code weights}) the problem concerns. */
    public String key() {
        return key;
    }
}
