package io.courier.shuffle.proxy.relay;

import io.courier.shuffle.proxy.protocol.ChannelFrameReader;
import io.courier.shuffle.proxy.protocol.DirectBlockPool;
import io.courier.shuffle.proxy.protocol.Frame;
import io.courier.shuffle.proxy.protocol.FrameBodies;
import io.courier.shuffle.proxy.protocol.FrameType;
import io.courier.shuffle.proxy.protocol.HandshakeFrame;
import io.courier.shuffle.proxy.protocol.ProtocolException;

import java.io.Closeable;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.channels.Channels;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A local proxy the test drives frame by frame: it accepts one task connection, answers its handshake, records
 * every frame the task sends, and writes whatever the test tells it to, including frames a real proxy never
 * sends. Owns one accept-and-read thread, stopped by {@link #close()}.
 */
final class ScriptedLocalProxy implements Closeable {
    private final ServerSocket server;
    private final BlockingQueue<Frame> received = new LinkedBlockingQueue<>();
    private final Thread thread;
    private volatile Socket socket;
    private volatile OutputStream out;

    ScriptedLocalProxy() throws IOException {
        server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        thread = new Thread(this::serve, "scripted-local-proxy");
        thread.setDaemon(true);
        thread.start();
    }

    int port() {
        return server.getLocalPort();
    }

    private void serve() {
        try {
            Socket s = server.accept();
            socket = s;
            synchronized (this) {
                out = s.getOutputStream();
                out.write(FrameBodies.encode(new HandshakeFrame("127.0.0.1:" + port())));
                out.flush();
                notifyAll();
            }
            ChannelFrameReader r = new ChannelFrameReader(Channels.newChannel(s.getInputStream()),
                    new DirectBlockPool(0));
            Frame f;
            while ((f = r.read()) != null) {
                received.add(f);
            }
        } catch (IOException | ProtocolException e) {
            // the test closed the connection, or the task did
        }
    }

    /** The next frame the task sent of {@code type} (others are skipped), waiting up to 10 s. */
    Frame next(FrameType type) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            Frame f = received.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (f == null) {
                throw new AssertionError("no " + type + " frame from the task within 10 s");
            }
            if (f.type() == type) {
                return f;
            }
        }
    }

    /** Frames of {@code type} the task sent within {@code millis} (the rest are dropped). */
    int count(FrameType type, long millis) throws InterruptedException {
        int n = 0;
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        Frame f;
        while ((f = received.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) != null) {
            if (f.type() == type) {
                n++;
            }
        }
        return n;
    }

    void send(Frame f) throws IOException, InterruptedException {
        write(FrameBodies.encode(f));
    }

    void sendData(int streamId, byte[] payload) throws IOException, InterruptedException {
        java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
        DataOutputStream d = new DataOutputStream(b);
        d.writeInt(2 + 4 + payload.length);
        d.writeByte(1);
        d.writeByte(FrameType.DATA.code());
        d.writeInt(streamId);
        d.write(payload);
        write(b.toByteArray());
    }

    private void write(byte[] bytes) throws IOException, InterruptedException {
        synchronized (this) {
            long deadline = System.currentTimeMillis() + 10_000;
            while (out == null && System.currentTimeMillis() < deadline) {
                wait(100);
            }
            out.write(bytes);
            out.flush();
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        Socket s = socket;
        if (s != null) {
            s.close();
        }
    }
}
