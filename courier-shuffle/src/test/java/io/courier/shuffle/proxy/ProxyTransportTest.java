package io.courier.shuffle.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.courier.shuffle.proxy.auth.InMemorySecrets;
import io.netty.channel.epoll.Epoll;
import java.net.BindException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Collections;
import org.junit.jupiter.api.Test;

/** {@code courier.proxy.transport}: parsed, checked, resolved, and the transport a started proxy runs on. */
class ProxyTransportTest {
    @Test
    void defaultsToAutoWhichIsEpollWhereItLoads() {
        assertEquals(Epoll.isAvailable() ? ProxyTransport.EPOLL : ProxyTransport.NIO,
                ProxyConfig.defaults().transport());
        assertEquals(ProxyTransport.NIO, ProxyConfig.defaults().withTransport("nio").transport());
    }

    @Test
    void isReadFromPropertiesInAnyCase() {
        ProxyConfig c = ProxyConfig.fromProperties(Collections.singletonMap(ProxyConfig.TRANSPORT, " NIO "));
        assertEquals(ProxyTransport.NIO, c.transport());
    }

    @Test
    void refusesAnUnknownTransportNamingTheKey() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ProxyConfig.fromProperties(Collections.singletonMap(ProxyConfig.TRANSPORT, "kqueue")));
        assertTrue(e.getMessage().contains(ProxyConfig.TRANSPORT) && e.getMessage().contains("kqueue"),
                e.getMessage());
    }

    @Test
    void epollWhereItDoesNotLoadIsRefusedWithTheReason() {
        if (Epoll.isAvailable()) {
            assertEquals(ProxyTransport.EPOLL, ProxyTransport.parse("epoll"));
        } else {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> ProxyTransport.parse("epoll"));
            assertTrue(e.getMessage().contains(ProxyConfig.TRANSPORT), e.getMessage());
        }
    }

    @Test
    void aStartedProxyRunsOnTheConfiguredTransport() throws Exception {
        for (String t : new String[] {"nio", "auto", "EPOLL"}) {
            if (t.equals("EPOLL") && !Epoll.isAvailable()) {
                continue;
            }
            ProxyConfig c = ProxyConfig.defaults().withTransport(t);
            try (CourierProxy proxy = new CourierProxy(c, new InMemorySecrets(), (job, map) -> null)) {
                proxy.start();
                assertEquals(c.transport(), proxy.transport(), "setting " + t);
            }
        }
    }

    @Test
    void aTakenPortIsABindExceptionOnEitherTransport() throws Exception {
        for (String t : new String[] {"nio", "epoll"}) {
            if (t.equals("epoll") && !Epoll.isAvailable()) {
                continue;
            }
            try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
                ProxyConfig c = ProxyConfig.defaults().withTransport(t).withPort(taken.getLocalPort());
                CourierProxy proxy = new CourierProxy(c, new InMemorySecrets(), (job, map) -> null);
                BindException e = assertThrows(BindException.class, proxy::start, t);
                assertTrue(e.getMessage().length() > 0, t);
                proxy.close();
            }
        }
    }
}
