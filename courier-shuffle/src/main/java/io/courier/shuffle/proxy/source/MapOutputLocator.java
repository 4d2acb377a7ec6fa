package io.courier.shuffle.proxy.source;

import java.io.IOException;

/**
 * Finds a map attempt's output files on this node. The NodeManager integration resolves them under
 * {@code usercache/<user>/appcache/<app>/output/<attempt>/} through the NM's local-path handler.
 * Implementations must be thread-safe.
 */
public interface MapOutputLocator {
    /** The files of the attempt's output, or null when this node has no output for it. */
    MapOutputFiles locate(String job, String mapAttempt) throws IOException;
}
