package io.courier.shuffle.proxy.source;

import java.io.File;

/** Looks for {@code <root>/<job>/<mapAttempt>/file.out} and {@code file.out.index}: stand-alone use and tests. */
public final class DirectoryMapOutputLocator implements MapOutputLocator {
    private final File root;

    public DirectoryMapOutputLocator(File root) {
        this.root = root;
    }

    /** Where the output of {@code mapAttempt} of {@code job} lives under this locator's root. */
    public MapOutputFiles filesOf(String job, String mapAttempt) {
        File dir = new File(new File(root, job), mapAttempt);
        return new MapOutputFiles(new File(dir, "file.out"), new File(dir, "file.out.index"));
    }

    @Override
    public MapOutputFiles locate(String job, String mapAttempt) {
        MapOutputFiles f = filesOf(job, mapAttempt);
        return f.data().isFile() && f.index().isFile() ? f : null;
    }
}
