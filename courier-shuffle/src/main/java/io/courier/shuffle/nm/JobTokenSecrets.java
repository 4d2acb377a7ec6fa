package io.courier.shuffle.nm;

import io.courier.shuffle.proxy.auth.SecretLookup;
import org.apache.hadoop.mapreduce.security.token.JobTokenSecretManager;
import org.apache.hadoop.security.token.SecretManager;

import javax.crypto.SecretKey;
import java.util.function.Supplier;

/**
 * The proxy's job secrets, read from ShuffleHandler's {@link JobTokenSecretManager}: the same key the HTTP shuffle
 * checks, filled by {@code initializeApplication} and emptied by {@code stopApplication}. The manager is taken
 * from a supplier because ShuffleHandler creates a new one on every start. Thread-safe (the manager is).
 */
public final class JobTokenSecrets implements SecretLookup {
    private final Supplier<JobTokenSecretManager> manager;

    public JobTokenSecrets(Supplier<JobTokenSecretManager> manager) {
        this.manager = manager;
    }

    @Override
    public byte[] secretFor(String job) {
        JobTokenSecretManager m = manager.get();
        if (m == null || job == null) {
            return null;
        }
        try {
            SecretKey key = m.retrieveTokenSecret(job);
            return key == null ? null : key.getEncoded();
        } catch (SecretManager.InvalidToken e) {
            return null; // the job never started a task on this node, or it has ended
        }
    }
}
