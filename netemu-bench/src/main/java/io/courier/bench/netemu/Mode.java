package io.courier.bench.netemu;

/** How reducers fetch: Hadoop's own shuffle, or Courier's. */
enum Mode {
    /** Hadoop's ShuffleHandler serving; Hadoop's Shuffle (Fetcher threads, HTTP, one connection per host batch). */
    STOCK,
    /** Courier's proxies serving over one merged connection per host pair; Courier's reduce-side consumer. */
    COURIER
}
