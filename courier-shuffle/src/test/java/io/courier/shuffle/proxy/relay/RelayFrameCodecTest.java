package io.courier.shuffle.proxy.relay;

import io.courier.shuffle.proxy.testing.Frames;
import io.courier.shuffle.proxy.protocol.ErrorCode;
import io.courier.shuffle.proxy.protocol.Frame;
import io.courier.shuffle.proxy.protocol.FrameDecoder;
import io.courier.shuffle.proxy.protocol.FrameType;
import io.courier.shuffle.proxy.protocol.HandshakeFrame;
import io.courier.shuffle.proxy.protocol.ProtocolException;
import io.courier.shuffle.proxy.protocol.RelayFetchFrame;
import io.courier.shuffle.proxy.protocol.RouteFrame;
import io.courier.shuffle.proxy.protocol.Wire;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.DecoderException;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Wire format of the relay's frames: HANDSHAKE with a role, RELAY_FETCH and ROUTE. */
class RelayFrameCodecTest {
    private static final byte[] MAC = new byte[32];

    static {
        Arrays.fill(MAC, (byte) 7);
    }

    private static ProtocolException decodeError(ByteBuf b) {
        EmbeddedChannel dec = new EmbeddedChannel(new FrameDecoder());
        DecoderException e = assertThrows(DecoderException.class, () -> dec.writeInbound(b));
        dec.finishAndReleaseAll();
        assertTrue(e.getCause() instanceof ProtocolException, String.valueOf(e.getCause()));
        return (ProtocolException) e.getCause();
    }

    @Test
    void relayFramesRoundTrip() {
        List<Frame> frames = Arrays.<Frame>asList(
                new HandshakeFrame("task-1234@host", HandshakeFrame.Role.TASK),
                new HandshakeFrame("node-a:4000"),
                new RelayFetchFrame(7, "node-b:4000", "job_1_0001", "attempt_1_0001_m_000003_0", 5, 65536, MAC),
                new RelayFetchFrame(Integer.MAX_VALUE, "[::1]:1", "j", "m", -1, 0, new byte[0]),
                new RouteFrame(7, "node-a:4000->node-b:4000#3"));
        assertEquals(frames, Frames.decode(Frames.encode(frames.toArray(new Frame[0]))));
        RelayFetchFrame f = (RelayFetchFrame) frames.get(2);
        assertArrayEquals(MAC, f.mac());
        assertEquals(FrameType.RELAY_FETCH, f.type());
    }

    @Test
    void aPeerHandshakeIsByteIdenticalToVersionOne() {
        // Version 1: length, version, type, string nodeId and nothing else.
        byte[] name = "node-a:4000".getBytes(StandardCharsets.UTF_8);
        ByteBuf v1 = Unpooled.buffer().writeInt(2 + 2 + name.length).writeByte(Wire.VERSION)
                .writeByte(FrameType.HANDSHAKE.code()).writeShort(name.length).writeBytes(name);
        assertEquals(v1, Frames.encode(new HandshakeFrame("node-a:4000")));
        ByteBuf task = Frames.encode(new HandshakeFrame("node-a:4000", HandshakeFrame.Role.TASK));
        assertEquals(v1.readableBytes() + 1, task.readableBytes());
        assertEquals(HandshakeFrame.Role.TASK.code(), task.getByte(task.readableBytes() - 1));
    }

    @Test
    void anUnknownRoleIsMalformed() {
        ByteBuf b = Frames.encode(new HandshakeFrame("t", HandshakeFrame.Role.TASK));
        b.setByte(b.readableBytes() - 1, 9);
        ProtocolException e = decodeError(b);
        assertEquals(ErrorCode.MALFORMED_FRAME, e.code());
        assertTrue(e.getMessage().contains("role 9"), e.getMessage());
    }

    @Test
    void aHandshakeWithMoreThanTheRoleIsMalformed() {
        ByteBuf b = Unpooled.buffer().writeInt(2 + 2 + 1 + 2).writeByte(Wire.VERSION)
                .writeByte(FrameType.HANDSHAKE.code()).writeShort(1).writeByte('t').writeByte(1).writeByte(0);
        assertEquals(ErrorCode.MALFORMED_FRAME, decodeError(b).code());
    }

    @Test
    void aTruncatedRelayFetchIsMalformed() {
        ByteBuf full = Frames.encode(new RelayFetchFrame(1, "node-b:4000", "job_1_0001", "attempt_1_0001_m_000000_0", 0,
                1024, MAC));
        // Shorten the body by the MAC bytes but keep the length field consistent with what is sent.
        int cut = MAC.length;
        ByteBuf b = full.copy(0, full.readableBytes() - cut);
        b.setInt(0, b.readableBytes() - 4);
        full.release();
        assertEquals(ErrorCode.MALFORMED_FRAME, decodeError(b).code());
    }

    @Test
    void relayFieldsAreValidated() {
        ByteBuf zeroStream = Frames.encode(new RelayFetchFrame(1, "b:1", "j", "m", 0, 0, MAC));
        zeroStream.setInt(6, 0); // stream id 0 is the connection, never a stream
        assertEquals(ErrorCode.MALFORMED_FRAME, decodeError(zeroStream).code());

        ByteBuf emptySource = Unpooled.buffer().writeInt(0).writeByte(Wire.VERSION)
                .writeByte(FrameType.RELAY_FETCH.code()).writeInt(1).writeShort(0);
        emptySource.setInt(0, emptySource.readableBytes() - 4);
        assertEquals(ErrorCode.MALFORMED_FRAME, decodeError(emptySource).code());

        ByteBuf negativeCredit = Frames.encode(new RelayFetchFrame(1, "b:1", "j", "m", 0, 0, MAC));
        int creditAt = 4 + 2 + 4 + (2 + 3) + (2 + 1) + (2 + 1) + 4;
        negativeCredit.setInt(creditAt, -1);
        assertEquals(ErrorCode.MALFORMED_FRAME, decodeError(negativeCredit).code());

        ByteBuf routeNoName = Unpooled.buffer().writeInt(2 + 4 + 2).writeByte(Wire.VERSION)
                .writeByte(FrameType.ROUTE.code()).writeInt(3).writeShort(0);
        assertEquals(ErrorCode.MALFORMED_FRAME, decodeError(routeNoName).code());

        assertThrows(IllegalArgumentException.class, () -> new RouteFrame(0, "x"));
        assertThrows(IllegalArgumentException.class, () -> new RelayFetchFrame(1, "", "j", "m", 0, 0, MAC));
        assertThrows(IllegalArgumentException.class, () -> new HandshakeFrame("t", null));
    }
}
