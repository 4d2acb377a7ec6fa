package io.courier.shuffle.proxy.protocol;

import io.courier.shuffle.proxy.testing.Frames;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.Arrays;

/**
 * Writes the seed corpora of {@link FrameDecoderFuzzTest} and {@code RelayFrameFuzzTest}: valid encodings of
 * every frame type, alone and in sequence, so that the fuzzer starts from inputs that get past the framing.
 * Run from the module directory: {@code java -cp target/test-classes:target/classes:<netty> ...FuzzSeeds}
 * (docs/security.md, "Fuzzing"); the committed seeds are its output.
 */
public final class FuzzSeeds {
    private static final byte[] MAC = new byte[32];

    private FuzzSeeds() {
    }

    public static void main(String[] args) throws IOException {
        Arrays.fill(MAC, (byte) 7);
        File root = new File(args.length > 0 ? args[0] : "src/test/resources");
        File decoder = new File(root, "io/courier/shuffle/proxy/protocol/FrameDecoderFuzzTestInputs/"
                + "arbitraryBytesGiveFramesOrOneProtocolError");
        File relay = new File(root, "io/courier/shuffle/proxy/relay/RelayFrameFuzzTestInputs/"
                + "arbitraryTaskBytesNeverBreakTheRelay");
        decoder.mkdirs();
        relay.mkdirs();
        write(decoder, relay);
    }

    /** Every frame type once (a new array per call: encoding releases the DATA frame's payload). */
    private static Frame[] everyType() {
        return new Frame[] {
            new HandshakeFrame("node-a:4000"),
            new HandshakeFrame("task-1", HandshakeFrame.Role.TASK),
            new FetchFrame(7, "job_1_0001", "attempt_1_0001_m_000003_0", 5, 262144, MAC),
            new SegmentHeaderFrame(7, "attempt_1_0001_m_000003_0", 5, 12345L, 23456L, MAC),
            new CreditFrame(7, 65536),
            new DataFrame(7, Unpooled.wrappedBuffer(new byte[] {1, 2, 3, 4, 5})),
            new EndFrame(7),
            new ErrorFrame(7, ErrorCode.AUTHENTICATION_FAILED, "bad mac"),
            new CancelFrame(7),
            new ConnectionsFrame(3),
            new RelayFetchFrame(9, "node-b:7000", "job_1_0001", "attempt_1_0001_m_000003_0", 5, 262144, MAC),
            new RouteFrame(9, "node-a:7000->node-b:7000#1"),
        };
    }

    private static void write(File decoder, File relay) throws IOException {
        Frame[] all = everyType();
        // The decoder target reads its split sizes from the END of the input (FuzzedDataProvider): two bytes.
        byte[] oneRead = {(byte) 0xff, (byte) 0xff};
        byte[] smallReads = {0, 3};
        for (Frame f : all) {
            write(new File(decoder, "frame-" + f.type()), concat(Frames.encodeBytes(f), oneRead));
        }
        write(new File(decoder, "all-frames-one-read"), concat(Frames.encodeBytes(everyType()), oneRead));
        write(new File(decoder, "all-frames-small-reads"), concat(Frames.encodeBytes(everyType()), smallReads));
        // Longer than any other frame may be (MAX_FRAME_LENGTH): only its type lets it through.
        write(new File(decoder, "data-run"), concat(run(Wire.MAX_DATA, 1100), oneRead));
        write(new File(decoder, "data-run-small-reads"), concat(run(5, 1, 3), smallReads));
        write(new File(decoder, "full-data-frame"),
                concat(Frames.encodeBytes(new DataFrame(1, Unpooled.wrappedBuffer(new byte[Wire.MAX_DATA]))), oneRead));

        Frame[] fromTask = {
            new RelayFetchFrame(1, "node-b:7000", "job_1_0001", "attempt_1_0001_m_000003_0", 0, 262144, MAC),
            new CreditFrame(1, 131072),
            new CancelFrame(1),
            new ErrorFrame(1, ErrorCode.UNKNOWN_STREAM, "no such stream"),
            new RelayFetchFrame(2, "no-port", "job_1_0001", "attempt_1_0001_m_000003_0", 0, 1024, MAC),
        };
        for (Frame f : fromTask) {
            write(new File(relay, "frame-" + f.type() + "-" + f.streamId()), Frames.encodeBytes(f));
        }
        write(new File(relay, "task-session"), Frames.encodeBytes(fromTask));
        write(new File(relay, "fetch-on-task-connection"),
                Frames.encodeBytes(new FetchFrame(3, "job_1_0001", "attempt_1_0001_m_000003_0", 0, 1024, MAC)));
        write(new File(relay, "connection-error"), Frames.encodeBytes(new ErrorFrame(0, ErrorCode.IO_ERROR, "bye")));
    }

    /** A DATA_RUN of blocks of the given lengths (streams 1, 2, ...) as a sender writes it, then an END. */
    private static byte[] run(int... lengths) {
        int[] streams = new int[lengths.length];
        int payload = 0;
        for (int i = 0; i < lengths.length; i++) {
            streams[i] = i + 1;
            payload += lengths[i];
        }
        ByteBuf h = FrameEncoder.dataRunHeader(UnpooledByteBufAllocator.DEFAULT, streams, lengths, lengths.length);
        byte[] header = new byte[h.readableBytes()];
        h.readBytes(header);
        h.release();
        byte[] payloads = new byte[payload];
        for (int i = 0; i < payloads.length; i++) {
            payloads[i] = (byte) i;
        }
        return concat(concat(header, payloads), Frames.encodeBytes(new EndFrame(1)));
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] c = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }

    private static void write(File f, byte[] bytes) throws IOException {
        Files.write(f.toPath(), bytes);
    }
}
