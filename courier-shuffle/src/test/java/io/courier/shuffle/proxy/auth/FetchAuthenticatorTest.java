package io.courier.shuffle.proxy.auth;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FetchAuthenticatorTest {
    private static final byte[] KEY = "k".getBytes(StandardCharsets.UTF_8);
    private final FetchAuthenticator auth = new FetchAuthenticator();

    /** The reference: a fresh Mac for every MAC, as before Macs were kept per thread. */
    private static byte[] freshMac(byte[] key, byte[] message) throws Exception {
        javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
        mac.init(new javax.crypto.spec.SecretKeySpec(key, "HmacSHA256"));
        return mac.doFinal(message);
    }

    private static byte[] freshReplyMac(byte[] key, byte[] requestMac, long compressed, long raw) throws Exception {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(15 + 4 + requestMac.length + 16);
        b.put("courier-reply/1".getBytes(StandardCharsets.UTF_8)).putInt(requestMac.length).put(requestMac)
                .putLong(compressed).putLong(raw);
        return freshMac(key, b.array());
    }

    @Test
    void macIsHmacSha256OverTheCanonicalRequest() throws Exception {
        javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
        mac.init(new javax.crypto.spec.SecretKeySpec(KEY, "HmacSHA256"));
        byte[] expected = mac.doFinal(FetchAuthenticator.canonicalRequest("job_1_1", "attempt_1_1_m_000000_0", 3));
        byte[] got = auth.requestMac(KEY, "job_1_1", "attempt_1_1_m_000000_0", 3);
        assertEquals(32, got.length);
        assertTrue(java.util.Arrays.equals(expected, got));
    }

    @Test
    void everyFieldIsCovered() {
        byte[] m = auth.requestMac(KEY, "job_1_1", "attempt_1_1_m_000000_0", 3);
        assertTrue(auth.verifyRequest(KEY, "job_1_1", "attempt_1_1_m_000000_0", 3, m));
        assertFalse(auth.verifyRequest(KEY, "job_1_2", "attempt_1_1_m_000000_0", 3, m));
        assertFalse(auth.verifyRequest(KEY, "job_1_1", "attempt_1_1_m_000001_0", 3, m));
        assertFalse(auth.verifyRequest(KEY, "job_1_1", "attempt_1_1_m_000000_0", 4, m));
        assertFalse(auth.verifyRequest("other".getBytes(StandardCharsets.UTF_8), "job_1_1",
                "attempt_1_1_m_000000_0", 3, m));
    }

    @Test
    void fieldBoundariesCannotBeShifted() {
        // Without length prefixes "ab"+"c" and "a"+"bc" would collide.
        assertFalse(java.util.Arrays.equals(auth.requestMac(KEY, "ab", "c", 0),
                auth.requestMac(KEY, "a", "bc", 0)));
    }

    @Test
    void replyMacBindsRequestAndLengths() {
        byte[] req = auth.requestMac(KEY, "job_1_1", "attempt_1_1_m_000000_0", 3);
        byte[] rep = auth.replyMac(KEY, req, 100, 90);
        assertTrue(auth.verifyReply(KEY, req, 100, 90, rep));
        assertFalse(auth.verifyReply(KEY, req, 101, 90, rep));
        assertFalse(auth.verifyReply(KEY, req, 100, 91, rep));
        byte[] otherReq = auth.requestMac(KEY, "job_1_1", "attempt_1_1_m_000000_0", 4);
        assertFalse(auth.verifyReply(KEY, otherReq, 100, 90, rep));
    }

    @Test
    void emptySecretIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> auth.requestMac(new byte[0], "j", "m", 0));
    }

    @Test
    void mapAttemptsBelongToTheirJob() {
        assertEquals("job_1700000000000_0001", MapAttemptIds.jobOf("attempt_1700000000000_0001_m_000007_1"));
        assertTrue(MapAttemptIds.belongsTo("job_1700000000000_0001", "attempt_1700000000000_0001_m_000007_1"));
        assertFalse(MapAttemptIds.belongsTo("job_1700000000000_0002", "attempt_1700000000000_0001_m_000007_1"));
        assertNull(MapAttemptIds.jobOf("attempt_1700000000000_0001_r_000007_1"), "a reduce attempt is no map");
        assertNull(MapAttemptIds.jobOf("attempt_17x_0001_m_000007_1"));
        assertNull(MapAttemptIds.jobOf("job_1_1"));
    }

    @Test
    void aKeptMacGivesTheMacsOfAFreshOneAcrossKeysAndMessages() throws Exception {
        byte[][] keys = {KEY, "another secret".getBytes(StandardCharsets.UTF_8), new byte[64], new byte[100]};
        keys[2][0] = 7;
        for (int round = 0; round < 3; round++) {
            for (byte[] key : keys) {
                for (int partition = 0; partition < 3; partition++) {
                    byte[] expected = freshMac(key, FetchAuthenticator.canonicalRequest("job_1_1",
                            "attempt_1_1_m_00000" + round + "_0", partition));
                    byte[] got = auth.requestMac(key, "job_1_1", "attempt_1_1_m_00000" + round + "_0", partition);
                    assertArrayEquals(expected, got, "key of " + key.length + " bytes, round " + round);
                    assertArrayEquals(freshReplyMac(key, got, 100 + partition, 90), auth.replyMac(key, got,
                            100 + partition, 90));
                }
            }
        }
    }

    @Test
    void aSecretChangedInPlaceAfterAMacIsUsedAsItIsNow() throws Exception {
        byte[] secret = {1, 2, 3};
        auth.requestMac(secret, "j", "m", 0);
        secret[0] = 9; // the same array, new content: the kept Mac must not still use the old key
        assertArrayEquals(freshMac(new byte[] {9, 2, 3}, FetchAuthenticator.canonicalRequest("j", "m", 0)),
                auth.requestMac(secret, "j", "m", 0));
    }

    @Test
    void threadsSharingOneInstanceGetCorrectMacs() throws Exception {
        final byte[][] keys = {KEY, "s2".getBytes(StandardCharsets.UTF_8), "s3".getBytes(StandardCharsets.UTF_8)};
        final int perThread = 300;
        final byte[][] expected = new byte[keys.length * perThread][];
        for (int k = 0; k < keys.length; k++) {
            for (int i = 0; i < perThread; i++) {
                expected[k * perThread + i] = freshMac(keys[k], FetchAuthenticator.canonicalRequest("job_1_1",
                        "attempt_1_1_m_000000_0", i));
            }
        }
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(6);
        try {
            final java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
            java.util.List<java.util.concurrent.Future<Integer>> results = new java.util.ArrayList<>();
            for (int t = 0; t < 6; t++) {
                final int offset = t;
                results.add(pool.submit(() -> {
                    go.await();
                    int checked = 0;
                    for (int i = 0; i < perThread; i++) {
                        int k = (i + offset) % keys.length; // each thread switches keys on every MAC
                        byte[] got = auth.requestMac(keys[k], "job_1_1", "attempt_1_1_m_000000_0", i);
                        assertArrayEquals(expected[k * perThread + i], got, "thread " + offset + ", MAC " + i);
                        checked++;
                    }
                    return checked;
                }));
            }
            go.countDown();
            for (java.util.concurrent.Future<Integer> r : results) {
                assertEquals(perThread, r.get(60, java.util.concurrent.TimeUnit.SECONDS).intValue());
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
