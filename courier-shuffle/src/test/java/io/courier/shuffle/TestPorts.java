package io.courier.shuffle;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;

/**
 * Ports for tests. A port a test only probes is free for a moment, not kept: a "nobody listens here" address can
 * meet another socket that took it meanwhile (outgoing connections draw their local ports from the kernel's
 * ephemeral range, and so does every {@code bind(0)} of the test's own proxies). A port for a server the test starts
 * later comes from {@link io.courier.shuffle.nm.PortPairPicker#pick(int)}, outside that range.
 */
public final class TestPorts {
    private TestPorts() {
    }

    /**
     * A loopback port that refuses connections for as long as the returned socket is open: bound, never
     * listening, so the kernel answers a connect with a reset and no other socket can bind it. Close it at the end.
     */
    public static Socket refusing() throws IOException {
        Socket s = new Socket();
        try {
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            return s;
        } catch (IOException e) {
            s.close();
            throw e;
        }
    }
}
