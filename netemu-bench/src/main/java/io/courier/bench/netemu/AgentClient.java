package io.courier.bench.netemu;

import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/** Sends one request to a host agent over its Unix socket and reads the answer. Stateless; any thread. */
final class AgentClient {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final int host;
    private final Path socket;

    AgentClient(int host, Path socket) {
        this.host = host;
        this.socket = socket;
    }

    int host() {
        return host;
    }

    /** @throws IOException with the host named, when the agent cannot be reached or reports a failure */
    AgentMessages.Response call(AgentMessages.Request req) throws IOException {
        try (SocketChannel c = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            c.connect(UnixDomainSocketAddress.of(socket));
            OutputStream out = Channels.newOutputStream(c);
            out.write((JSON.writeValueAsString(req) + "\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(Channels.newInputStream(c),
                    StandardCharsets.UTF_8));
            String line = in.readLine();
            if (line == null) {
                throw new IOException("host " + host + " agent closed the connection without answering " + req.op());
            }
            AgentMessages.Response r = JSON.readValue(line, AgentMessages.Response.class);
            if (!r.ok()) {
                throw new IOException(r.error());
            }
            return r;
        } catch (IOException e) {
            if (e.getMessage() != null && e.getMessage().startsWith("host ")) {
                throw e;
            }
            throw new IOException("host " + host + " agent (" + socket + "): " + req.op() + ": " + e, e);
        }
    }
}
