package io.courier.shuffle.proxy.client;

/** A callback fetch in progress; {@link #cancel()} stops it (its consumer hears nothing more). */
public interface FetchHandle {
    void cancel();
}
