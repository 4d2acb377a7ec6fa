package io.courier.shuffle.proxy.source;

import java.io.File;

/** The bytes one reducer fetches from one map output: {@code length} bytes of {@code file} at {@code offset}. */
public final class Segment {
    private final File file;
    private final long offset;
    private final long length;
    private final long rawLength;

    public Segment(File file, long offset, long length, long rawLength) {
        this.file = file;
        this.offset = offset;
        this.length = length;
        this.rawLength = rawLength;
    }

    public File file() {
        return file;
    }

    public long offset() {
        return offset;
    }

    /** On-wire length: IFile bytes including the CRC32 trailer (ShuffleHeader's compressedLength). */
    public long length() {
        return length;
    }

    /** Raw length (ShuffleHeader's uncompressedLength). */
    public long rawLength() {
        return rawLength;
    }

    @Override
    public String toString() {
        return file + "[" + offset + ", +" + length + "]";
    }
}
