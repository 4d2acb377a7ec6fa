package io.courier.shuffle.proxy.auth;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * HMAC-SHA256 authentication of fetches and their replies (docs/protocol.md, "Authentication"). Hadoop's
 * ShuffleHandler uses HmacSHA1 over the URL ({@code UrlHash}) and HMACs that hash for the reply
 * ({@code ReplyHash}); Courier uses SHA-256 and a canonical, length-prefixed encoding of the request fields
 * so that no two different requests share an encoding. The reply MAC binds the request MAC and the
 * announced segment lengths. Stateless; {@link Mac} instances are created per call.
 */
public final class FetchAuthenticator {
    /** MAC algorithm; at least as strong as Hadoop's HmacSHA1. */
    public static final String ALGORITHM = "HmacSHA256";
    private static final byte[] REQUEST_DOMAIN = "courier-fetch/1".getBytes(StandardCharsets.UTF_8);
    private static final byte[] REPLY_DOMAIN = "courier-reply/1".getBytes(StandardCharsets.UTF_8);

    private FetchAuthenticator() {
    }

    /** The MAC a reducer sends with a fetch of {@code partition} of {@code mapAttempt}'s output of {@code job}. */
    public static byte[] requestMac(byte[] secret, String job, String mapAttempt, int partition) {
        return hmac(secret, canonicalRequest(job, mapAttempt, partition));
    }

    /** Verifies a request MAC in constant time. */
    public static boolean verifyRequest(byte[] secret, String job, String mapAttempt, int partition, byte[] mac) {
        return MessageDigest.isEqual(requestMac(secret, job, mapAttempt, partition), mac);
    }

    /** The MAC the serving proxy puts in the segment header answering a request with {@code requestMac}. */
    public static byte[] replyMac(byte[] secret, byte[] requestMac, long compressedLength, long rawLength) {
        ByteBuffer b = ByteBuffer.allocate(REPLY_DOMAIN.length + 4 + requestMac.length + 16);
        b.put(REPLY_DOMAIN).putInt(requestMac.length).put(requestMac).putLong(compressedLength).putLong(rawLength);
        return hmac(secret, b.array());
    }

    /** Verifies a reply MAC in constant time. */
    public static boolean verifyReply(byte[] secret, byte[] requestMac, long compressedLength, long rawLength,
            byte[] replyMac) {
        return MessageDigest.isEqual(replyMac(secret, requestMac, compressedLength, rawLength), replyMac);
    }

    /** Domain tag, then each string as a 4-byte length and its UTF-8 bytes, then the partition. */
    static byte[] canonicalRequest(String job, String mapAttempt, int partition) {
        byte[] j = job.getBytes(StandardCharsets.UTF_8);
        byte[] m = mapAttempt.getBytes(StandardCharsets.UTF_8);
        ByteBuffer b = ByteBuffer.allocate(REQUEST_DOMAIN.length + 4 + j.length + 4 + m.length + 4);
        b.put(REQUEST_DOMAIN).putInt(j.length).put(j).putInt(m.length).put(m).putInt(partition);
        return b.array();
    }

    private static byte[] hmac(byte[] secret, byte[] message) {
        if (secret == null || secret.length == 0) {
            throw new IllegalArgumentException("a non-empty job secret is required to compute a fetch MAC");
        }
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(new SecretKeySpec(secret, ALGORITHM));
            return mac.doFinal(message);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(ALGORITHM + " is not available in this JVM", e);
        }
    }
}
