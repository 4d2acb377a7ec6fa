package io.courier.shuffle.proxy.source;

import java.io.File;

/** A map attempt's output as Hadoop writes it: the data file {@code file.out} and its index {@code file.out.index}. */
public final class MapOutputFiles {
    private final File data;
    private final File index;

    public MapOutputFiles(File data, File index) {
        if (data == null || index == null) {
            throw new IllegalArgumentException("map output needs a data and an index file");
        }
        this.data = data;
        this.index = index;
    }

    public File data() {
        return data;
    }

    public File index() {
        return index;
    }

    @Override
    public String toString() {
        return data + " (index " + index + ")";
    }
}
