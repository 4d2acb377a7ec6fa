package io.courier.shuffle.proxy;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The blocking (task-side) check: a socket connected to itself is refused and leaves its port free at once. */
@Timeout(30)
class SelfConnectionTest {

    @Test
    void aBlockingSocketConnectedToItselfIsRefusedAndItsPortFreed() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
        Socket socket = new Socket();
        socket.bind(address);
        socket.connect(address, 5000); // nothing listens: simultaneous open joins the socket to itself
        assertTrue(SelfConnection.isSelf(socket.getLocalSocketAddress(), socket.getRemoteSocketAddress()));
        ConnectException e = assertThrows(ConnectException.class, () -> SelfConnection.refuseIfSelf(socket));
        assertTrue(e.getMessage().contains("itself") && e.getMessage().contains(String.valueOf(port)),
                e.getMessage());
        assertTrue(socket.isClosed());
        try (ServerSocket server = new ServerSocket()) {
            server.setReuseAddress(true);
            server.bind(new InetSocketAddress(port)); // no TIME_WAIT left behind
        }
    }

    @Test
    void anOrdinaryConnectionIsLeftAlone() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort())) {
            assertFalse(SelfConnection.isSelf(socket.getLocalSocketAddress(), socket.getRemoteSocketAddress()));
            SelfConnection.refuseIfSelf(socket);
            assertFalse(socket.isClosed());
        }
    }
}
