package io.courier.shuffle.proxy.protocol;

import java.nio.charset.StandardCharsets;

/** Field checks shared by the frame constructors, so that every frame built can also be encoded. */
final class Checks {
    private Checks() {
    }

    static String identifier(String what, String s) {
        if (s == null || s.isEmpty()) {
            throw new IllegalArgumentException(what + " must be non-empty");
        }
        if (s.getBytes(StandardCharsets.UTF_8).length > Wire.MAX_STRING) {
            throw new IllegalArgumentException(what + " is longer than " + Wire.MAX_STRING + " bytes: " + s);
        }
        return s;
    }

    static int streamId(int id) {
        if (id <= 0) {
            throw new IllegalArgumentException("stream id must be > 0, got " + id);
        }
        return id;
    }

    static byte[] mac(byte[] mac) {
        if (mac == null || mac.length > Wire.MAX_MAC) {
            throw new IllegalArgumentException("MAC must be present and at most " + Wire.MAX_MAC + " bytes");
        }
        return mac.clone();
    }

    static long nonNegative(String what, long v) {
        if (v < 0) {
            throw new IllegalArgumentException(what + " must be >= 0, got " + v);
        }
        return v;
    }
}
