package io.courier.shuffle.service;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ServiceMetadataTest {
    @Test
    void roundTripsWithTrailingBytesAsTheContainerEnvironmentCarriesThem() {
        ServiceMetadata m = new ServiceMetadata(40301, 40302, ProxyPortRule.offset(1));
        ByteBuffer exact = m.encode();
        assertEquals(28, exact.remaining());
        assertEquals(28, exact.array().length, "the env var exports the whole backing array");
        byte[] padded = new byte[36];
        exact.duplicate().get(padded, 0, 28);
        ServiceMetadata back = ServiceMetadata.decode(ByteBuffer.wrap(padded));
        assertEquals(40301, back.shufflePort());
        assertEquals(40302, back.proxyPort());
        assertEquals(ProxyPortRule.offset(1), back.rule());
        assertNull(back.relaySocket());
        assertEquals(40301, exact.getInt(), "the AM reads the shuffle port as the first int");
    }

    @Test
    void carriesTheRelaySocketPathAndStillReadsVersionOne() {
        String path = "/tmp/courier-relay-12345/relay.sock";
        ByteBuffer b = new ServiceMetadata(40301, 40302, ProxyPortRule.offset(1), path).encode();
        assertEquals(path, ServiceMetadata.decode(b).relaySocket());
        ByteBuffer v1 = ByteBuffer.allocate(24).putInt(40301).putInt(ServiceMetadata.MAGIC).putInt(1).putInt(40302)
                .putInt(ProxyPortRule.offset(1).kind()).putInt(ProxyPortRule.offset(1).value());
        v1.flip();
        ServiceMetadata old = ServiceMetadata.decode(v1);
        assertEquals(40302, old.proxyPort());
        assertNull(old.relaySocket(), "version 1 (an older NodeManager jar) has no socket: tasks use TCP");
        ByteBuffer corrupt = new ServiceMetadata(40301, 40302, ProxyPortRule.offset(1), path).encode();
        corrupt.putInt(24, 1 << 20);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ServiceMetadata.decode(corrupt));
        assertTrue(e.getMessage().contains("relay socket path"), e.getMessage());
    }

    @Test
    void stockShuffleHandlerMetadataIsNotCourier() {
        ByteBuffer stock = ByteBuffer.allocate(4).putInt(13562);
        stock.flip();
        assertNull(ServiceMetadata.decode(stock));
        ByteBuffer padded = ByteBuffer.allocate(32).putInt(13562);
        padded.rewind();
        assertNull(ServiceMetadata.decode(padded), "zero padding after the port is not the magic");
    }

    @Test
    void unknownVersionAndTruncationAreClearErrors() {
        ByteBuffer b = new ServiceMetadata(1000, 2000, ProxyPortRule.fixed(2000)).encode();
        b.putInt(8, 7);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ServiceMetadata.decode(b));
        assertTrue(e.getMessage().contains("version 7"), e.getMessage());
        ByteBuffer cut = ByteBuffer.allocate(12).putInt(1000).putInt(ServiceMetadata.MAGIC).putInt(1);
        cut.flip();
        assertThrows(IllegalArgumentException.class, () -> ServiceMetadata.decode(cut));
    }

    @Test
    void portRules() {
        assertEquals(13563, ProxyPortRule.of(13563, 1).proxyPortFor(13562));
        assertEquals(13563, ProxyPortRule.of(13563, 1).proxyPortFor(4242), "fixed ignores the shuffle port");
        assertEquals(40303, ProxyPortRule.of(ProxyPortRule.OFFSET_MODE, 2).proxyPortFor(40301));
        assertTrue(ProxyPortRule.of(-1, 1).isOffset());
        assertFalse(ProxyPortRule.of(5, 1).isOffset());
        assertThrows(IllegalArgumentException.class, () -> ProxyPortRule.offset(1).proxyPortFor(65535));
        assertThrows(IllegalArgumentException.class, () -> ProxyPortRule.fixed(0));
        assertThrows(IllegalArgumentException.class, () -> ProxyPortRule.offset(0));
    }
}
