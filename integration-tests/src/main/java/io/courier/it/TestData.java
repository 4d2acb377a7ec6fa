package io.courier.it;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/** Deterministic small inputs for word-count jobs. */
public final class TestData {
    private TestData() {
    }

    /**
     * Writes {@code files} text files of about {@code bytesPerFile} bytes each under {@code dir}: words drawn with a
     * skewed distribution from a vocabulary of {@code vocabulary} words, seeded by {@code seed}, so every run
     * writes the same bytes.
     */
    public static void writeWordFiles(FileSystem fs, Path dir, int files, int bytesPerFile, int vocabulary,
                                      long seed) throws IOException {
        SplittableRandom random = new SplittableRandom(seed);
        for (int f = 0; f < files; f++) {
            StringBuilder text = new StringBuilder(bytesPerFile + 64);
            int words = 0;
            while (text.length() < bytesPerFile) {
                // Squaring a uniform draw favours low word numbers: a few frequent words and a long tail.
                double u = random.nextDouble();
                int w = (int) (u * u * vocabulary);
                text.append("w").append(Integer.toString(w, 36));
                text.append(++words % 12 == 0 ? '\n' : ' ');
            }
            try (OutputStream out = fs.create(new Path(dir, String.format("words-%02d.txt", f)), true)) {
                out.write(text.toString().getBytes(StandardCharsets.UTF_8));
            }
        }
    }
}
