package io.courier.shuffle.proxy.server;

import io.courier.shuffle.proxy.schedule.StreamClass;
import io.courier.shuffle.proxy.source.Segment;
import io.netty.channel.ChannelFuture;

import java.io.IOException;
import java.nio.channels.FileChannel;

/**
 * One segment being sent on a connection: what is left of it, the credit the receiver granted, and its
 * place in the sender's schedule (class and stride pass). Confined to the connection's event loop.
 */
final class OutboundStream {
    final int id;
    final String job;
    final String mapAttempt;
    final Segment segment;
    final FileChannel file;
    long position;
    long remaining;
    long credit;
    StreamClass streamClass = StreamClass.BACKGROUND;
    /** This stream's share of its class weight (class weight / streams of the class on the connection). */
    double weight = 1.0;
    /** Stride scheduling: bytes sent divided by weight; the eligible stream with the smallest pass goes next. */
    double pass;
    /** A write that completes after every block written so far of this stream (null before the first). */
    ChannelFuture lastWrite;
    /** Blocks sent since the scheduler was last told (reported once per send pass, not per block). */
    long unreported;
    /** {@code SendScheduler.flowKey(job, peer)}, set when the stream joins a connection (computed once). */
    String flowKey;
    private boolean fileClosed;

    OutboundStream(int id, String job, String mapAttempt, Segment segment, FileChannel file, long credit) {
        this.id = id;
        this.job = job;
        this.mapAttempt = mapAttempt;
        this.segment = segment;
        this.file = file;
        this.position = segment.offset();
        this.remaining = segment.length();
        this.credit = credit;
    }

    boolean eligible() {
        return remaining > 0 && credit > 0 && weight > 0;
    }

    /** Closes the file once everything already written from it has left (or failed). */
    void closeFileWhenWritten() {
        if (lastWrite == null || lastWrite.isDone()) {
            closeFile();
        } else {
            lastWrite.addListener(f -> closeFile());
        }
    }

    private void closeFile() {
        if (fileClosed) {
            return;
        }
        fileClosed = true;
        try {
            file.close();
        } catch (IOException ignored) {
            // Nothing to recover: the stream is over either way.
        }
    }
}
