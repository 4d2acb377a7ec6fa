package io.courier.shuffle.proxy.protocol;

import java.io.ByteArrayOutputStream;
import java.io.DataOutput;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The byte layout of every frame except a DATA frame's payload (docs/protocol.md), written against the JDK only.
 * The proxies' Netty codec ({@link FrameEncoder}, {@link FrameDecoder}) and a reduce task's blocking relay
 * client both encode and parse control frames here, so the two transports cannot drift apart; DATA payloads
 * stay with each transport, which moves them without copies of its own kind. Stateless.
 */
public final class FrameBodies {
    private FrameBodies() {
    }

    /**
     * The complete frame ({@code length | version | type | body}) of a control frame.
     *
     * @throws IllegalArgumentException for a DATA frame, whose payload the transport writes itself
     */
    public static byte[] encode(Frame frame) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
        DataOutputStream out = new DataOutputStream(bytes);
        try {
            out.writeInt(0);
            writeAfterLength(frame, out);
        } catch (IOException e) {
            throw new IllegalStateException("writing to memory failed", e);
        }
        byte[] b = bytes.toByteArray();
        ByteBuffer.wrap(b).putInt(0, b.length - Wire.LENGTH_FIELD);
        return b;
    }

    /**
     * A control frame without its length field ({@code version | type | body}), onto {@code out}: for a
     * transport that writes into its own buffers and fills in the length (the frame's bytes after the field)
     * itself. The same bytes as {@link #encode} after its first four.
     *
     * @throws IllegalArgumentException for a DATA frame, whose payload the transport writes itself
     * @throws IOException if {@code out} fails
     */
    public static void writeAfterLength(Frame frame, DataOutput out) throws IOException {
        out.writeByte(Wire.VERSION);
        out.writeByte(frame.type().code());
        writeBody(frame, out);
    }

    /** Checks a frame's length field before anything is buffered for it. */
    public static void checkLength(int length) throws ProtocolException {
        if (length < Wire.PREAMBLE || length > Wire.MAX_FRAME_LENGTH) {
            throw new ProtocolException(length < Wire.PREAMBLE ? ErrorCode.MALFORMED_FRAME : ErrorCode.FRAME_TOO_LARGE,
                    "frame length " + length + " outside [" + Wire.PREAMBLE + ", " + Wire.MAX_FRAME_LENGTH + "]");
        }
    }

    /** The frame type after a frame's length field, once its version has been checked. */
    public static FrameType checkVersionAndType(byte version, byte code) throws ProtocolException {
        if (version != Wire.VERSION) {
            throw new ProtocolException(ErrorCode.UNSUPPORTED_VERSION,
                    "protocol version " + version + " is not supported (this node speaks " + Wire.VERSION + ")");
        }
        FrameType type = FrameType.ofCode(code);
        if (type == null) {
            throw new ProtocolException(ErrorCode.UNKNOWN_FRAME_TYPE, "unknown frame type " + code);
        }
        return type;
    }

    /**
     * Parses the body of a control frame, which must be consumed exactly.
     *
     * @throws ProtocolException {@code MALFORMED_FRAME} for a short, over-long or invalid body
     * @throws IllegalArgumentException for {@code DATA} and {@code DATA_RUN}, which the transport parses itself
     */
    public static Frame decodeBody(FrameType type, ByteBuffer body) throws ProtocolException {
        if (type == FrameType.DATA || type == FrameType.DATA_RUN) {
            throw new IllegalArgumentException(type + " frames are parsed by their transport");
        }
        Frame frame;
        try {
            frame = readBody(type, body);
        } catch (BufferUnderflowException e) {
            throw new ProtocolException(ErrorCode.MALFORMED_FRAME, type + " frame body is malformed: it ends early");
        } catch (IllegalArgumentException e) {
            throw new ProtocolException(ErrorCode.MALFORMED_FRAME, type + " frame body is malformed: "
                    + e.getMessage());
        }
        if (body.hasRemaining()) {
            throw new ProtocolException(ErrorCode.MALFORMED_FRAME, type + " frame body has " + body.remaining()
                    + " trailing bytes");
        }
        return frame;
    }

    private static void writeBody(Frame frame, DataOutput out) throws IOException {
        switch (frame.type()) {
            case HANDSHAKE: {
                HandshakeFrame h = (HandshakeFrame) frame;
                writeString(out, h.nodeId());
                if (h.role() != HandshakeFrame.Role.PEER) {
                    out.writeByte(h.role().code());
                }
                break;
            }
            case RELAY_FETCH: {
                RelayFetchFrame f = (RelayFetchFrame) frame;
                out.writeInt(f.streamId());
                writeString(out, f.source());
                writeFetchFields(out, f.fetch());
                break;
            }
            case ROUTE:
                out.writeInt(frame.streamId());
                writeString(out, ((RouteFrame) frame).connection());
                break;
            case FETCH: {
                out.writeInt(frame.streamId());
                writeFetchFields(out, (FetchFrame) frame);
                break;
            }
            case SEGMENT_HEADER: {
                SegmentHeaderFrame h = (SegmentHeaderFrame) frame;
                out.writeInt(h.streamId());
                writeString(out, h.mapAttempt());
                out.writeInt(h.partition());
                out.writeLong(h.compressedLength());
                out.writeLong(h.rawLength());
                writeBytes(out, h.replyMac());
                break;
            }
            case CREDIT:
                out.writeInt(frame.streamId());
                out.writeInt(((CreditFrame) frame).bytes());
                break;
            case CONNECTIONS:
                out.writeInt(((ConnectionsFrame) frame).count());
                break;
            case END:
            case CANCEL:
                out.writeInt(frame.streamId());
                break;
            case ERROR: {
                ErrorFrame e = (ErrorFrame) frame;
                out.writeInt(e.streamId());
                out.writeShort(e.code().code());
                writeString(out, truncate(e.message()));
                if (e.code() == ErrorCode.OVERLOADED) {
                    out.writeInt(e.retryAfterMillis());
                }
                break;
            }
            default:
                throw new IllegalArgumentException("frame type " + frame.type() + " has no body encoder here: " + frame);
        }
    }

    private static void writeFetchFields(DataOutput out, FetchFrame f) throws IOException {
        writeString(out, f.job());
        writeString(out, f.mapAttempt());
        out.writeInt(f.partition());
        out.writeInt(f.initialCredit());
        writeBytes(out, f.mac());
    }

    private static Frame readBody(FrameType type, ByteBuffer in) {
        switch (type) {
            case HANDSHAKE: {
                String nodeId = readString(in, Wire.MAX_STRING);
                // Version-1 peers send the name only; a task appends its role byte.
                return in.hasRemaining() ? new HandshakeFrame(nodeId, HandshakeFrame.Role.ofCode(in.get()))
                        : new HandshakeFrame(nodeId);
            }
            case RELAY_FETCH:
                return new RelayFetchFrame(in.getInt(), readString(in, Wire.MAX_STRING),
                        readString(in, Wire.MAX_STRING), readString(in, Wire.MAX_STRING), in.getInt(), in.getInt(),
                        readBytes(in));
            case ROUTE:
                return new RouteFrame(in.getInt(), readString(in, Wire.MAX_STRING));
            case FETCH:
                return new FetchFrame(in.getInt(), readString(in, Wire.MAX_STRING), readString(in, Wire.MAX_STRING),
                        in.getInt(), in.getInt(), readBytes(in));
            case SEGMENT_HEADER:
                return new SegmentHeaderFrame(in.getInt(), readString(in, Wire.MAX_STRING), in.getInt(),
                        in.getLong(), in.getLong(), readBytes(in));
            case CREDIT:
                return new CreditFrame(in.getInt(), in.getInt());
            case END:
                return new EndFrame(in.getInt());
            case CANCEL:
                return new CancelFrame(in.getInt());
            case CONNECTIONS:
                return new ConnectionsFrame(in.getInt());
            case ERROR: {
                int stream = in.getInt();
                ErrorCode code = ErrorCode.ofCode(in.getShort());
                String message = readString(in, Wire.MAX_MESSAGE);
                return code == ErrorCode.OVERLOADED ? new ErrorFrame(stream, code, message, in.getInt())
                        : new ErrorFrame(stream, code, message);
            }
            default:
                throw new IllegalArgumentException("no body decoder for " + type);
        }
    }

    private static String truncate(String message) {
        String m = message;
        while (m.getBytes(StandardCharsets.UTF_8).length > Wire.MAX_MESSAGE) {
            m = m.substring(0, m.length() / 2);
        }
        return m;
    }

    private static void writeString(DataOutput out, String s) throws IOException {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.writeShort(b.length);
        out.write(b);
    }

    private static void writeBytes(DataOutput out, byte[] b) throws IOException {
        out.writeByte(b.length);
        out.write(b);
    }

    private static String readString(ByteBuffer in, int max) {
        int n = in.getShort() & 0xffff;
        if (n > max) {
            throw new IllegalArgumentException("string of " + n + " bytes exceeds " + max);
        }
        if (n > in.remaining()) {
            throw new IllegalArgumentException("string of " + n + " bytes but only " + in.remaining() + " left");
        }
        byte[] b = new byte[n];
        in.get(b);
        return new String(b, StandardCharsets.UTF_8);
    }

    private static byte[] readBytes(ByteBuffer in) {
        int n = in.get() & 0xff;
        if (n > Wire.MAX_MAC) {
            throw new IllegalArgumentException("MAC of " + n + " bytes exceeds " + Wire.MAX_MAC);
        }
        if (n > in.remaining()) {
            throw new IllegalArgumentException("MAC of " + n + " bytes but only " + in.remaining() + " left");
        }
        byte[] b = new byte[n];
        in.get(b);
        return b;
    }
}
