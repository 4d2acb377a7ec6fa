package io.courier.coordinator.wire;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import com.esotericsoftware.kryo.util.Pool;
import io.courier.coordinator.protocol.CoordinatorMessage;

/**
 * Encodes and decodes wire messages with Kryo, frame-capped on both sides: a message larger than
 * {@code maxFrameBytes} is refused when encoding, and bytes longer than that are refused BEFORE Kryo reads
 * them. A frame must hold exactly one registered message and nothing after it.
 *
 * <p>Thread-safe: Kryo instances (not thread-safe themselves) are borrowed from a pool, one per call.
 */
public final class WireCodec {
    private final int maxFrameBytes;
    private final Pool<Kryo> kryos;
    private final Pool<Output> outputs;

    public WireCodec(final ActorRefCodec refs, final int maxFrameBytes) {
        if (maxFrameBytes < 64) {
            throw new IllegalArgumentException("max frame bytes must be >= 64, got " + maxFrameBytes);
        }
        this.maxFrameBytes = maxFrameBytes;
        this.kryos = new Pool<Kryo>(true, false, 64) {
            @Override
            protected Kryo create() {
                return WireTable.newKryo(refs);
            }
        };
        this.outputs = new Pool<Output>(true, false, 64) {
            @Override
            protected Output create() {
                return new Output(1024, maxFrameBytes);
            }
        };
    }

    public int maxFrameBytes() {
        return maxFrameBytes;
    }

    public byte[] encode(Object message) {
        if (!(message instanceof CoordinatorMessage)) {
            throw new WireFormatException("refusing to encode " + (message == null ? "null" : message.getClass().getName())
                    + ": not a Courier wire message");
        }
        Kryo kryo = kryos.obtain();
        Output out = outputs.obtain();
        try {
            out.reset();
            kryo.writeClassAndObject(out, message);
            return out.toBytes();
        } catch (KryoException e) {
            throw new WireFormatException("cannot encode " + message.getClass().getSimpleName() + " within the "
                    + maxFrameBytes + "-byte frame limit (" + describe(message) + "): " + e.getMessage(), e);
        } catch (IllegalArgumentException e) {
            throw new WireFormatException("cannot encode " + message.getClass().getName() + ": " + e.getMessage(), e);
        } finally {
            outputs.free(out);
            kryos.free(kryo);
        }
    }

    public CoordinatorMessage decode(byte[] bytes) {
        if (bytes == null || bytes.length == 0) {
            throw new WireFormatException("empty frame");
        }
        if (bytes.length > maxFrameBytes) {
            throw new WireFormatException("frame of " + bytes.length + " bytes exceeds the limit of " + maxFrameBytes
                    + " bytes; not decoded");
        }
        Kryo kryo = kryos.obtain();
        try {
            Input in = new Input(bytes);
            checkTopLevelClass(kryo, in, bytes.length);
            Object o = kryo.readClassAndObject(in);
            if (!(o instanceof CoordinatorMessage)) {
                throw new WireFormatException("frame of " + bytes.length + " bytes holds "
                        + (o == null ? "null" : o.getClass().getSimpleName()) + ", not a top-level wire message");
            }
            if (in.position() != bytes.length) {
                throw new WireFormatException("frame of " + bytes.length + " bytes has " + (bytes.length - in.position())
                        + " trailing bytes after " + o.getClass().getSimpleName());
            }
            return (CoordinatorMessage) o;
        } catch (WireFormatException e) {
            if (e.getMessage().startsWith("frame of")) {
                throw e;
            }
            throw new WireFormatException("malformed frame of " + bytes.length + " bytes: " + e.getMessage(), e);
        } catch (RuntimeException e) {
            // KryoException (unregistered id, underflow) or a constructor's IllegalArgumentException (bad value).
            throw new WireFormatException("malformed frame of " + bytes.length + " bytes: " + e.getMessage(), e);
        } finally {
            // Kryo keeps per-call state (e.g. graph depth) that a failed read can leave behind.
            kryo.reset();
            kryos.free(kryo);
        }
    }

    /**
     * Refuses a frame whose leading class id is not one of the table's messages BEFORE Kryo reads it: Kryo writes
     * a registered class as its id + 2, and 0 means null, 1 a class given by NAME, and the low ids Kryo's own
     * types (String, ...). Kryo reads a class name or a String with its own reader, which trusts the declared
     * length: a 33-byte frame made it allocate 160 MB (found by WireDecodeFuzzTest; its crash input is kept as
     * a regression seed). Leaves {@code in} at the start of the frame.
     */
    private static void checkTopLevelClass(Kryo kryo, Input in, int length) {
        int id = in.readVarInt(true) - 2;
        if (id < WireTable.MIN_ID || kryo.getRegistration(id) == null) {
            throw new WireFormatException("frame of " + length + " bytes starts with Kryo class id " + id
                    + ", which is not a Courier wire message; not decoded");
        }
        in.setPosition(0);
    }

    private static String describe(Object message) {
        String s = message.toString();
        return s.length() > 120 ? s.substring(0, 120) + "..." : s;
    }
}
