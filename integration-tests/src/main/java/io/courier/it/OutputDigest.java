package io.courier.it;

import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The SHA-256 of every {@code part-*} file of a job's output directory, by file name, and their total size. Two
 * outputs are byte-identical exactly when their digests are equal. Immutable.
 *
 * @param parts file name to hex SHA-256
 * @param bytes total size of the part files
 */
public record OutputDigest(SortedMap<String, String> parts, long bytes) {

    public OutputDigest {
        parts = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(parts));
    }

    /** Digest of the part files under {@code dir}. */
    public static OutputDigest of(FileSystem fs, Path dir) throws IOException {
        SortedMap<String, String> parts = new TreeMap<>();
        long bytes = 0;
        byte[] buf = new byte[1 << 16];
        for (FileStatus st : fs.listStatus(dir)) {
            String name = st.getPath().getName();
            if (!name.startsWith("part-")) {
                continue;
            }
            MessageDigest md = sha256();
            try (InputStream in = fs.open(st.getPath())) {
                int n;
                while ((n = in.read(buf)) > 0) {
                    md.update(buf, 0, n);
                    bytes += n;
                }
            }
            parts.put(name, HexFormat.of().formatHex(md.digest()));
        }
        if (parts.isEmpty()) {
            throw new IOException("no part files in " + dir);
        }
        return new OutputDigest(parts, bytes);
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("JDK without SHA-256", e);
        }
    }

    /** Names of the part files whose content differs from {@code other}'s (or exist in only one of them). */
    public java.util.List<String> differences(OutputDigest other) {
        java.util.List<String> diff = new java.util.ArrayList<>();
        for (Map.Entry<String, String> e : parts.entrySet()) {
            if (!e.getValue().equals(other.parts.get(e.getKey()))) {
                diff.add(e.getKey());
            }
        }
        for (String k : other.parts.keySet()) {
            if (!parts.containsKey(k)) {
                diff.add(k);
            }
        }
        return diff;
    }
}
