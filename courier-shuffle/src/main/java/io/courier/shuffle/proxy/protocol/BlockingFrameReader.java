package io.courier.shuffle.proxy.protocol;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;

/**
 * Reads frames from a blocking stream, with the checks of {@link FrameDecoder}: the length is checked before
 * anything is buffered, then version, type and an exactly consumed body (docs/protocol.md). DATA frames come
 * as {@link ArrayDataFrame}s. After a {@link ProtocolException} the stream's framing can no longer be trusted:
 * the caller closes it. Used by the reduce task's Netty-free relay client. One reading thread.
 */
public final class BlockingFrameReader {
    private final DataInputStream in;

    public BlockingFrameReader(InputStream in) {
        this.in = new DataInputStream(in);
    }

    /**
     * The next frame, or {@code null} if the stream ended cleanly between two frames.
     *
     * @throws ProtocolException the bytes violate the protocol, or the stream ended inside a frame
     * @throws IOException the stream failed
     */
    public Frame read() throws IOException, ProtocolException {
        int first = in.read();
        if (first < 0) {
            return null;
        }
        try {
            int length = (first << 24) | (in.readUnsignedByte() << 16) | (in.readUnsignedShort());
            FrameBodies.checkLength(length);
            byte version = in.readByte();
            byte code = in.readByte();
            FrameType type = FrameBodies.checkVersionAndType(version, code);
            int bodyLength = length - Wire.PREAMBLE;
            if (type == FrameType.DATA) {
                return readData(bodyLength);
            }
            if (type == FrameType.DATA_RUN) {
                // Runs save headers on the proxies' merged connections; a proxy relays to its tasks block by block.
                throw new ProtocolException(ErrorCode.UNEXPECTED_FRAME, "DATA_RUN frame on a task connection");
            }
            byte[] body = new byte[bodyLength];
            in.readFully(body);
            return FrameBodies.decodeBody(type, ByteBuffer.wrap(body));
        } catch (EOFException e) {
            throw new ProtocolException(ErrorCode.MALFORMED_FRAME, "connection closed inside a frame");
        }
    }

    /** Reads the payload straight into its own array: the reader's one copy of the bytes. */
    private ArrayDataFrame readData(int bodyLength) throws IOException, ProtocolException {
        if (bodyLength < 4) {
            throw new ProtocolException(ErrorCode.MALFORMED_FRAME, "DATA frame body is malformed: " + bodyLength
                    + " bytes, no stream id");
        }
        int streamId = in.readInt();
        int n = bodyLength - 4;
        if (streamId <= 0 || n > Wire.MAX_DATA) {
            throw new ProtocolException(ErrorCode.MALFORMED_FRAME, "DATA frame body is malformed: stream "
                    + streamId + ", " + n + " payload bytes (at most " + Wire.MAX_DATA + ")");
        }
        byte[] payload = new byte[n];
        in.readFully(payload);
        return new ArrayDataFrame(streamId, payload);
    }
}
