package io.courier.shuffle.proxy.source;

import java.io.File;

/**
 * A map attempt's output as Hadoop writes it: the data file {@code file.out} and its index {@code file.out.index},
 * and the user who must own both (the user its job's containers run as), or null where nobody's ownership is
 * checked (tests, tools). Immutable.
 */
public final class MapOutputFiles {
    private final File data;
    private final File index;
    private final String owner;

    public MapOutputFiles(File data, File index) {
        this(data, index, null);
    }

    /** @param owner the user who must own both files, or null: not checked */
    public MapOutputFiles(File data, File index, String owner) {
        if (data == null || index == null) {
            throw new IllegalArgumentException("map output needs a data and an index file");
        }
        this.data = data;
        this.index = index;
        this.owner = owner;
    }

    /** The user who must own both files, or null when ownership is not checked. */
    public String owner() {
        return owner;
    }

    public File data() {
        return data;
    }

    public File index() {
        return index;
    }

    @Override
    public String toString() {
        return data + " (index " + index + (owner == null ? ")" : ", owner " + owner + ")");
    }
}
