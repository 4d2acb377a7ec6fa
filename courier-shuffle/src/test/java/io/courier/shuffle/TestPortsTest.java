package io.courier.shuffle;

import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.BindException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;

import org.junit.jupiter.api.Test;

/** What the tests that use {@link TestPorts#refusing()} rely on. */
class TestPortsTest {

    @Test
    void aRefusingPortRefusesConnectionsAndCannotBeTakenWhileHeld() throws Exception {
        try (Socket nobody = TestPorts.refusing()) {
            InetSocketAddress at = new InetSocketAddress(InetAddress.getLoopbackAddress(), nobody.getLocalPort());
            try (Socket client = new Socket()) {
                assertThrows(ConnectException.class, () -> client.connect(at, 2_000));
            }
            // As a proxy would bind it (Netty with SO_REUSEADDR), on the wildcard address and on loopback.
            for (InetSocketAddress bind : new InetSocketAddress[] {new InetSocketAddress(at.getPort()), at}) {
                try (ServerSocket squatter = new ServerSocket()) {
                    squatter.setReuseAddress(true);
                    assertThrows(BindException.class, () -> squatter.bind(bind));
                }
            }
        }
    }
}
