package io.courier.coordinator.wire;

import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import java.nio.charset.StandardCharsets;

/**
 * Field encodings shared by the message serializers. Strings are a varint byte length plus UTF-8, and every
 * declared length or count is checked against the bytes that are actually left BEFORE anything is allocated:
 * Kryo 5.6.2 itself trusts declared sizes (research/ECOSYSTEM.md §2).
 */
final class Fields {
    private Fields() {
    }

    static void writeString(Output out, String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.writeVarInt(b.length, true);
        out.writeBytes(b);
    }

    static String readString(Input in) {
        int n = in.readVarInt(true);
        checkLength("string", n, 1, in);
        return new String(in.readBytes(n), StandardCharsets.UTF_8);
    }

    /** Reads a count of elements that take at least {@code minBytesEach} bytes each. */
    static int readCount(Input in, String what, int minBytesEach) {
        int n = in.readVarInt(true);
        checkLength(what, n, minBytesEach, in);
        return n;
    }

    private static void checkLength(String what, int n, int minBytesEach, Input in) {
        long left = in.limit() - in.position();
        if (n < 0 || (long) n * minBytesEach > left) {
            throw new WireFormatException("declared " + what + " length " + n + " exceeds the " + left
                    + " bytes left in the frame");
        }
    }
}
