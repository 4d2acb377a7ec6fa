package io.courier.bench.netemu;

/** Hadoop identifiers of the benchmark's synthetic jobs: coflow c is job {@code job_<TS>_<c>}. Stateless. */
final class BenchIds {
    static final long CLUSTER_TS = 1700000000000L;
    static final String USER = "bench";
    /** Hadoop's default shuffle port; the Courier proxy listens on the next port. */
    static final int SHUFFLE_PORT = 13562;
    static final int PROXY_PORT_OFFSET = 1;
    /** The coordinated shuffle service's port (mode COURIER_COORD); its proxy listens on the next port. */
    static final int COORD_SHUFFLE_PORT = 13572;

    private BenchIds() {
    }

    static String job(int coflow) {
        return String.format("job_%d_%04d", CLUSTER_TS, coflow);
    }

    static String app(int coflow) {
        return String.format("application_%d_%04d", CLUSTER_TS, coflow);
    }

    /** Map {@code index} (0-based over all hosts: host h (1-based) has maps (h-1)*M .. h*M-1). */
    static String mapAttempt(int coflow, int index) {
        return String.format("attempt_%d_%04d_m_%06d_0", CLUSTER_TS, coflow, index);
    }

    static String reduceAttempt(int coflow, int partition) {
        return String.format("attempt_%d_%04d_r_%06d_0", CLUSTER_TS, coflow, partition);
    }

    /** The job token secret of a coflow (the shuffle's HMAC key); deterministic so every agent agrees. */
    static byte[] secret(int coflow) {
        return ("netemu-secret-" + coflow).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }
}
