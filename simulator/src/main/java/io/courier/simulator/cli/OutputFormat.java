package io.courier.simulator.cli;

/** What {@code courier simulate} prints on stdout. */
public enum OutputFormat {
    /** A table for people ({@link io.courier.simulator.report.SummaryTable}). */
    table,
    /** Exactly one JSON object ({@link io.courier.simulator.report.SummaryJson}). */
    json,
    /** One CSV row per run ({@link io.courier.simulator.report.SummaryCsv}). */
    csv
}
