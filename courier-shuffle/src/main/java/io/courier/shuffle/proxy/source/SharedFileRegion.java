package io.courier.shuffle.proxy.source;

import io.netty.channel.DefaultFileRegion;

import java.nio.channels.FileChannel;

/**
 * A zero-copy region of a file channel that many regions share: unlike its parent {@code DefaultFileRegion} it
 * does not close the channel when released, because a segment is sent as many 64 KiB regions of one open
 * file; the stream closes the file after its last region is written.
 *
 * <p>It is a {@code DefaultFileRegion} (not merely a {@code FileRegion}) because Netty's native epoll transport
 * sends only that class with one {@code sendfile} call on the file's descriptor; any other region goes through
 * {@code FileChannel.transferTo}, which costs an extra {@code fstat} per block.
 */
public final class SharedFileRegion extends DefaultFileRegion {
    public SharedFileRegion(FileChannel file, long position, long count) {
        super(file, position, count);
    }

    @Override
    protected void deallocate() {
        // The owning stream closes the shared file.
    }
}
