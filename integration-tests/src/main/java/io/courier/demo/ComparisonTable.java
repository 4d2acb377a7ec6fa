package io.courier.demo;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

import org.apache.hadoop.mapreduce.TaskCounter;

/** The demo's side-by-side table of a stock and a Courier TeraSort (the Courier column may be absent). */
final class ComparisonTable {
    private static final String[] COURIER_COUNTERS = {"PROXY_BYTES", "PROXY_SEGMENTS", "LOCAL_BYTES",
        "LOCAL_SEGMENTS", "PROXY_CONNECTIONS",
        "HTTP_FALLBACK_BYTES", "HTTP_FALLBACK_SEGMENTS", "WAIT_MILLIS"};

    private final SortRun stock;
    private final SortRun courier;

    ComparisonTable(SortRun stock, SortRun courier) {
        this.stock = stock;
        this.courier = courier;
    }

    String render() {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"", "stock shuffle", courier == null ? "" : "Courier"});
        row(rows, "TeraSort job time", r -> seconds(r.sort().wallMillis()));
        row(rows, "shuffle time, slowest reducer", r -> seconds(r.sort().maxShuffleMillis()));
        row(rows, "shuffle time, all reducers", r -> seconds(r.sort().totalShuffleMillis()));
        row(rows, "shuffle bytes (REDUCE_SHUFFLE_BYTES)", r -> count(r.sort().shuffleBytes()));
        row(rows, "map outputs fetched (SHUFFLED_MAPS)", r -> count(r.sort().counter(TaskCounter.SHUFFLED_MAPS)));
        row(rows, "TCP connections opened for the shuffle", r -> count(r.shuffleConnections()));
        row(rows, "  reducer -> NodeManager HTTP", r -> count(r.httpConnections()));
        row(rows, "  reducer -> local Courier proxy", r -> count(r.relayConnections()));
        row(rows, "  Courier proxy -> Courier proxy", r -> count(r.peerConnections()));
        for (String c : COURIER_COUNTERS) {
            row(rows, "Courier." + c, r -> r.sort().hasCourierCounters() ? count(r.sort().courier(c)) : "-");
        }
        row(rows, "TeraValidate", r -> r.report() == null ? "not run"
                : r.report().valid() ? "OK" : r.report().problems().size() + " problems");
        row(rows, "TeraValidate checksum", r -> r.report() == null ? "-" : r.report().checksum());
        if (courier != null) {
            rows.add(new String[] {"sorted outputs byte-identical", stock.output().equals(courier.output())
                    ? "yes" : "NO", ""});
        }
        return format(rows);
    }

    private void row(List<String[]> rows, String name, Function<SortRun, String> value) {
        rows.add(new String[] {name, value.apply(stock), courier == null ? "" : value.apply(courier)});
    }

    private static String seconds(long millis) {
        return String.format(Locale.ROOT, "%.1f s", millis / 1000.0);
    }

    private static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    private static String format(List<String[]> rows) {
        int[] w = {1, 1, 1};
        for (String[] r : rows) {
            for (int i = 0; i < 3; i++) {
                w[i] = Math.max(w[i], r[i].length());
            }
        }
        StringBuilder sb = new StringBuilder();
        String rule = "-".repeat(w[0] + w[1] + w[2] + 6) + "\n";
        for (int k = 0; k < rows.size(); k++) {
            String[] r = rows.get(k);
            sb.append(String.format(Locale.ROOT, "%-" + w[0] + "s   %" + w[1] + "s   %" + w[2] + "s%n", r[0], r[1],
                    r[2]));
            if (k == 0) {
                sb.append(rule);
            }
        }
        return sb.toString();
    }
}
