package io.courier.shuffle.proxy.auth;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FetchAuthenticatorTest {
    private static final byte[] KEY = "k".getBytes(StandardCharsets.UTF_8);

    @Test
    void macIsHmacSha256OverTheCanonicalRequest() throws Exception {
        javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
        mac.init(new javax.crypto.spec.SecretKeySpec(KEY, "HmacSHA256"));
        byte[] expected = mac.doFinal(FetchAuthenticator.canonicalRequest("job_1_1", "attempt_1_1_m_000000_0", 3));
        byte[] got = FetchAuthenticator.requestMac(KEY, "job_1_1", "attempt_1_1_m_000000_0", 3);
        assertEquals(32, got.length);
        assertTrue(java.util.Arrays.equals(expected, got));
    }

    @Test
    void everyFieldIsCovered() {
        byte[] m = FetchAuthenticator.requestMac(KEY, "job_1_1", "attempt_1_1_m_000000_0", 3);
        assertTrue(FetchAuthenticator.verifyRequest(KEY, "job_1_1", "attempt_1_1_m_000000_0", 3, m));
        assertFalse(FetchAuthenticator.verifyRequest(KEY, "job_1_2", "attempt_1_1_m_000000_0", 3, m));
        assertFalse(FetchAuthenticator.verifyRequest(KEY, "job_1_1", "attempt_1_1_m_000001_0", 3, m));
        assertFalse(FetchAuthenticator.verifyRequest(KEY, "job_1_1", "attempt_1_1_m_000000_0", 4, m));
        assertFalse(FetchAuthenticator.verifyRequest("other".getBytes(StandardCharsets.UTF_8), "job_1_1",
                "attempt_1_1_m_000000_0", 3, m));
    }

    @Test
    void fieldBoundariesCannotBeShifted() {
        // Without length prefixes "ab"+"c" and "a"+"bc" would collide.
        assertFalse(java.util.Arrays.equals(FetchAuthenticator.requestMac(KEY, "ab", "c", 0),
                FetchAuthenticator.requestMac(KEY, "a", "bc", 0)));
    }

    @Test
    void replyMacBindsRequestAndLengths() {
        byte[] req = FetchAuthenticator.requestMac(KEY, "job_1_1", "attempt_1_1_m_000000_0", 3);
        byte[] rep = FetchAuthenticator.replyMac(KEY, req, 100, 90);
        assertTrue(FetchAuthenticator.verifyReply(KEY, req, 100, 90, rep));
        assertFalse(FetchAuthenticator.verifyReply(KEY, req, 101, 90, rep));
        assertFalse(FetchAuthenticator.verifyReply(KEY, req, 100, 91, rep));
        byte[] otherReq = FetchAuthenticator.requestMac(KEY, "job_1_1", "attempt_1_1_m_000000_0", 4);
        assertFalse(FetchAuthenticator.verifyReply(KEY, otherReq, 100, 90, rep));
    }

    @Test
    void emptySecretIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> FetchAuthenticator.requestMac(new byte[0], "j", "m", 0));
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
}
