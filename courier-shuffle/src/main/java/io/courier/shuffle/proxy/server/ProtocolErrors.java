package io.courier.shuffle.proxy.server;

import io.courier.shuffle.proxy.protocol.ProtocolException;

/** Finds the {@link ProtocolException} behind a pipeline exception (decoders wrap it in a DecoderException). */
public final class ProtocolErrors {
    private ProtocolErrors() {
    }

    public static ProtocolException find(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof ProtocolException) {
                return (ProtocolException) c;
            }
        }
        return null;
    }
}
