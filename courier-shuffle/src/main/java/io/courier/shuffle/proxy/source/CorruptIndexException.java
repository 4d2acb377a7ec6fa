package io.courier.shuffle.proxy.source;

import java.io.IOException;

/** A map output index failed its size, bounds or CRC32 check (Hadoop throws {@code ChecksumException} here). */
public final class CorruptIndexException extends IOException {
    private static final long serialVersionUID = 1L;

    public CorruptIndexException(String message) {
        super(message);
    }
}
