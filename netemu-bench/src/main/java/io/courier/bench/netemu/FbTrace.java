package io.courier.bench.netemu;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The Facebook MapReduce coflow trace (coflow-benchmark format: a "racks coflows" header, then per coflow
 * {@code id arrivalMs mappers m1..mk reducers r1:MB..}). Only what the mixed stream needs: arrival, number of
 * reducers and total shuffled megabytes. Immutable.
 */
record FbTrace(List<Entry> coflows) {
    /** One coflow of the trace. */
    record Entry(long arrivalMs, int reducers, double totalMb) {
    }

    /** @throws IOException naming the line for a malformed trace */
    static FbTrace read(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file);
        if (lines.isEmpty()) {
            throw new IOException(file + ": empty trace");
        }
        List<Entry> out = new ArrayList<>();
        for (int i = 1; i < lines.size(); i++) {
            String t = lines.get(i).trim();
            if (t.isEmpty()) {
                continue;
            }
            String[] f = t.split("\\s+");
            try {
                long arrival = Long.parseLong(f[1]);
                int m = Integer.parseInt(f[2]);
                int r = Integer.parseInt(f[3 + m]);
                double mb = 0;
                for (int k = 0; k < r; k++) {
                    String rs = f[4 + m + k];
                    mb += Double.parseDouble(rs.substring(rs.indexOf(':') + 1));
                }
                out.add(new Entry(arrival, r, mb));
            } catch (RuntimeException e) {
                throw new IOException(file + " line " + (i + 1) + ": not a coflow-benchmark trace line: " + e);
            }
        }
        return new FbTrace(List.copyOf(out));
    }
}
