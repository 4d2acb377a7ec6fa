package io.courier.shuffle.proxy.source;

import io.netty.channel.FileRegion;
import io.netty.util.AbstractReferenceCounted;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;

/**
 * A zero-copy region of a file channel that many regions share: unlike Netty's {@code DefaultFileRegion} it
 * does not close the channel when released, because a segment is sent as many 64 KiB regions of one open
 * file; the stream closes the file after its last region is written.
 */
public final class SharedFileRegion extends AbstractReferenceCounted implements FileRegion {
    private final FileChannel file;
    private final long position;
    private final long count;
    private long transferred;

    public SharedFileRegion(FileChannel file, long position, long count) {
        this.file = file;
        this.position = position;
        this.count = count;
    }

    @Override
    public long position() {
        return position;
    }

    @Override
    @Deprecated
    public long transfered() {
        return transferred;
    }

    @Override
    public long transferred() {
        return transferred;
    }

    @Override
    public long count() {
        return count;
    }

    @Override
    public long transferTo(WritableByteChannel target, long pos) throws IOException {
        long left = count - pos;
        if (left < 0 || pos < 0) {
            throw new IllegalArgumentException("position out of range: " + pos + " (expected: 0 - " + (count - 1)
                    + ")");
        }
        if (left == 0) {
            return 0L;
        }
        long written = file.transferTo(position + pos, left, target);
        if (written > 0) {
            transferred += written;
        } else if (written == 0 && file.size() < position + count) {
            throw new IOException("file shrank under a region: size " + file.size() + " < " + (position + count));
        }
        return written;
    }

    @Override
    public FileRegion retain() {
        super.retain();
        return this;
    }

    @Override
    public FileRegion retain(int increment) {
        super.retain(increment);
        return this;
    }

    @Override
    public FileRegion touch() {
        return this;
    }

    @Override
    public FileRegion touch(Object hint) {
        return this;
    }

    @Override
    protected void deallocate() {
        // The owning stream closes the shared file.
    }
}
