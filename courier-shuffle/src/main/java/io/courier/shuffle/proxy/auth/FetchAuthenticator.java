package io.courier.shuffle.proxy.auth;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * HMAC-SHA256 authentication of fetches and their replies (docs/protocol.md, "Authentication"). Hadoop's
 * ShuffleHandler uses HmacSHA1 over the URL ({@code UrlHash}) and HMACs that hash for the reply
 * ({@code ReplyHash}); Courier uses SHA-256 and a canonical, length-prefixed encoding of the request fields
 * so that no two different requests share an encoding. The reply MAC binds the request MAC and the
 * announced segment lengths.
 *
 * <p>Threads: thread-safe; any thread may call any method. Each calling thread gets its own {@link Mac} (a
 * {@code Mac} is not thread-safe), kept in this instance's {@link ThreadLocal} and re-keyed only when the
 * secret differs from the one it was last initialized with, so a connection's thread pays for
 * {@code Mac.getInstance} once instead of once per MAC (four per segment). Owners keep one instance (per
 * connection or per proxy); the per-thread {@code Mac}s go with the instance.
 */
public final class FetchAuthenticator {
    /** MAC algorithm; at least as strong as Hadoop's HmacSHA1. */
    public static final String ALGORITHM = "HmacSHA256";
    private static final byte[] REQUEST_DOMAIN = "courier-fetch/1".getBytes(StandardCharsets.UTF_8);
    private static final byte[] REPLY_DOMAIN = "courier-reply/1".getBytes(StandardCharsets.UTF_8);

    /** Per calling thread: its Mac and the key that Mac was last initialized with. */
    private final ThreadLocal<KeyedMac> macs = new ThreadLocal<>();

    /** The MAC a reducer sends with a fetch of {@code partition} of {@code mapAttempt}'s output of {@code job}. */
    public byte[] requestMac(byte[] secret, String job, String mapAttempt, int partition) {
        return hmac(secret, canonicalRequest(job, mapAttempt, partition));
    }

    /** Verifies a request MAC in constant time. */
    public boolean verifyRequest(byte[] secret, String job, String mapAttempt, int partition, byte[] mac) {
        return MessageDigest.isEqual(requestMac(secret, job, mapAttempt, partition), mac);
    }

    /** The MAC the serving proxy puts in the segment header answering a request with {@code requestMac}. */
    public byte[] replyMac(byte[] secret, byte[] requestMac, long compressedLength, long rawLength) {
        ByteBuffer b = ByteBuffer.allocate(REPLY_DOMAIN.length + 4 + requestMac.length + 16);
        b.put(REPLY_DOMAIN).putInt(requestMac.length).put(requestMac).putLong(compressedLength).putLong(rawLength);
        return hmac(secret, b.array());
    }

    /** Verifies a reply MAC in constant time. */
    public boolean verifyReply(byte[] secret, byte[] requestMac, long compressedLength, long rawLength,
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

    private byte[] hmac(byte[] secret, byte[] message) {
        if (secret == null || secret.length == 0) {
            throw new IllegalArgumentException("a non-empty job secret is required to compute a fetch MAC");
        }
        KeyedMac m = macs.get();
        if (m == null) {
            m = new KeyedMac();
            macs.set(m);
        }
        return m.mac(secret, message);
    }

    /** One thread's {@link Mac}; confined to that thread (held in {@link #macs}). */
    private static final class KeyedMac {
        private final Mac mac;
        /** A copy of the secret {@link #mac} is initialized with; null before the first (or after a failed) init. */
        private byte[] key;

        KeyedMac() {
            try {
                mac = Mac.getInstance(ALGORITHM);
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException(ALGORITHM + " is not available in this JVM", e);
            }
        }

        byte[] mac(byte[] secret, byte[] message) {
            if (key == null || !Arrays.equals(key, secret)) {
                key = null;
                try {
                    mac.init(new SecretKeySpec(secret, ALGORITHM));
                } catch (GeneralSecurityException e) {
                    throw new IllegalStateException(ALGORITHM + " rejected a job secret of " + secret.length
                            + " bytes", e);
                }
                key = secret.clone();
            }
            // doFinal leaves the Mac initialized with the same key, ready for the next message.
            return mac.doFinal(message);
        }
    }
}
