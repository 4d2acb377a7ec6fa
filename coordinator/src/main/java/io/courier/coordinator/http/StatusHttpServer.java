package io.courier.coordinator.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import io.courier.coordinator.status.CoordinatorStatus;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The coordinator's HTTP endpoints on the JDK's built-in server: {@code GET /api/v1/status} (JSON),
 * {@code GET /metrics} (Prometheus text) and {@code GET /} (a small live page polling the JSON). The owner
 * (the daemon) starts it and must {@link #close()} it; requests run on the server's own two threads and
 * wait at most 5 s for a status snapshot from the scheduling actor.
 */
public final class StatusHttpServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StatusHttpServer.class);
    private static final long STATUS_TIMEOUT_SECONDS = 5;

    private final HttpServer server;
    private final ExecutorService executor;

    private StatusHttpServer(HttpServer server, ExecutorService executor) {
        this.server = server;
        this.executor = executor;
    }

    /** Binds {@code host:port} (0 = any free port) and serves {@code status} snapshots. */
    public static StatusHttpServer start(String host, int port, final Supplier<CompletionStage<CoordinatorStatus>> status)
            throws IOException {
        final byte[] page = resource("/io/courier/coordinator/http/index.html");
        final StatusJson json = new StatusJson();
        HttpServer server = HttpServer.create(new InetSocketAddress(host, port), 32);
        server.createContext("/api/v1/status", get("/api/v1/status", exchange -> send(exchange, 200,
                "application/json; charset=utf-8", json.render(snapshot(status)))));
        server.createContext("/metrics", get("/metrics", exchange -> send(exchange, 200,
                "text/plain; version=0.0.4; charset=utf-8", PrometheusText.render(snapshot(status)))));
        server.createContext("/", get("/", exchange -> send(exchange, 200, "text/html; charset=utf-8", page)));
        ExecutorService executor = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "courier-coordinator-http");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(executor);
        server.start();
        LOG.info("HTTP status API on http://{}:{}/ (api/v1/status, metrics)", host, server.getAddress().getPort());
        return new StatusHttpServer(server, executor);
    }

    public int port() {
        return server.getAddress().getPort();
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
        try {
            executor.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static CoordinatorStatus snapshot(Supplier<CompletionStage<CoordinatorStatus>> status) throws IOException {
        try {
            return status.get().toCompletableFuture().get(STATUS_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for the coordinator's status", e);
        } catch (Exception e) {
            throw new IOException("no status from the coordinator within " + STATUS_TIMEOUT_SECONDS + " s: " + e, e);
        }
    }

    /** A handler for one endpoint. */
    private interface Endpoint {
        void handle(HttpExchange exchange) throws IOException;
    }

    /**
     * {@code endpoint} for GET and HEAD of exactly {@code path}: the JDK server hands a context every path that
     * starts with its own, so {@code /metricsX} or {@code /api/v1/status/x} would otherwise be served too.
     */
    private static HttpHandler get(final String path, final Endpoint endpoint) {
        return exchange -> {
            try {
                if (!path.equals(exchange.getRequestURI().getPath())) {
                    send(exchange, 404, "text/plain; charset=utf-8", "not found\n".getBytes(StandardCharsets.UTF_8));
                    return;
                }
                if (!"GET".equals(exchange.getRequestMethod()) && !"HEAD".equals(exchange.getRequestMethod())) {
                    exchange.getResponseHeaders().set("Allow", "GET, HEAD");
                    send(exchange, 405, "text/plain; charset=utf-8", "method not allowed\n".getBytes(StandardCharsets.UTF_8));
                    return;
                }
                endpoint.handle(exchange);
            } catch (IOException | RuntimeException e) {
                LOG.warn("HTTP {} {} failed: {}", exchange.getRequestMethod(), exchange.getRequestURI(), e.toString());
                try {
                    send(exchange, 503, "text/plain; charset=utf-8",
                            ("unavailable: " + e.getMessage() + "\n").getBytes(StandardCharsets.UTF_8));
                } catch (IOException ignored) {
                    // the client is gone
                }
            } finally {
                exchange.close();
            }
        };
    }

    private static void send(HttpExchange exchange, int code, String type, byte[] body) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", type);
        exchange.getResponseHeaders().set("Cache-Control", "no-store");
        boolean head = "HEAD".equals(exchange.getRequestMethod());
        exchange.sendResponseHeaders(code, head ? -1 : body.length);
        if (!head) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    private static byte[] resource(String path) throws IOException {
        try (InputStream in = StatusHttpServer.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IOException("missing resource " + path);
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] buf = new byte[8192];
            int n;
            while ((n = in.read(buf)) > 0) {
                out.write(buf, 0, n);
            }
            return out.toByteArray();
        }
    }
}
