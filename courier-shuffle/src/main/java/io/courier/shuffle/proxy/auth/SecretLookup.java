package io.courier.shuffle.proxy.auth;

/**
 * Finds a job's shuffle secret. In the NodeManager this is ShuffleHandler's job-token secret manager; in
 * tests and stand-alone use, {@link InMemorySecrets}. Implementations must be thread-safe.
 */
public interface SecretLookup {
    /** The job's secret key, or null when this node knows no secret for the job. */
    byte[] secretFor(String job);
}
