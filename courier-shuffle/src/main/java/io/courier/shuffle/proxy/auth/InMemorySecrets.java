package io.courier.shuffle.proxy.auth;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/** A thread-safe job → secret table: jobs are added when they start on the node and removed when they end. */
public final class InMemorySecrets implements SecretLookup {
    private final ConcurrentMap<String, byte[]> secrets = new ConcurrentHashMap<>();

    public void put(String job, byte[] secret) {
        if (job == null || secret == null || secret.length == 0) {
            throw new IllegalArgumentException("job and a non-empty secret are required, got job " + job);
        }
        secrets.put(job, secret.clone());
    }

    public void remove(String job) {
        secrets.remove(job);
    }

    @Override
    public byte[] secretFor(String job) {
        byte[] s = secrets.get(job);
        return s == null ? null : s.clone();
    }
}
