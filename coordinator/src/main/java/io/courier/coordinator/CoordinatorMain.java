package io.courier.coordinator;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigParseOptions;
import io.courier.coordinator.http.StatusHttpServer;
import java.io.File;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The coordinator daemon ({@code bin/courier coordinator}): reads the HOCON configuration (defaults, then
 * {@code --conf FILE}, then JVM system properties, then the flags), starts the {@link Coordinator} and its
 * {@link StatusHttpServer}, runs in the foreground logging to stderr, and stops both on SIGTERM/SIGINT.
 */
@Command(name = "courier coordinator", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Runs Courier's coordinator in the foreground (logs to stderr; SIGTERM stops it).")
public final class CoordinatorMain implements Callable<Integer> {
    @Option(names = "--conf", paramLabel = "FILE", description = "HOCON configuration file (see conf/coordinator.conf).")
    private File conf;

    @Option(names = "--hostname", paramLabel = "HOST",
            description = "Address proxies use to reach the coordinator (courier.coordinator.hostname).")
    private String hostname;

    @Option(names = "--port", paramLabel = "N", description = "Artery TCP port (courier.coordinator.port).")
    private Integer port;

    @Option(names = "--http-port", paramLabel = "N", description = "HTTP status port (courier.coordinator.http.port).")
    private Integer httpPort;

    @Option(names = "--scheduler", paramLabel = "NAME",
            description = "Scheduler registry name, e.g. varys, aalo, sincronia, fair (courier.coordinator.scheduler.name).")
    private String scheduler;

    @Option(names = {"-P", "--scheduler-param"}, paramLabel = "KEY=VALUE",
            description = "A scheduler parameter (courier.coordinator.scheduler.parameters.KEY); repeatable.")
    private Map<String, String> schedulerParams = new LinkedHashMap<String, String>();

    @Option(names = "--epoch-ms", paramLabel = "MS", description = "Scheduling epoch in ms (courier.coordinator.epoch).")
    private Long epochMillis;

    public static void main(String[] args) {
        // slf4j-simple: timestamps and thread names on stderr unless the operator configured otherwise.
        defaultProperty("org.slf4j.simpleLogger.showDateTime", "true");
        defaultProperty("org.slf4j.simpleLogger.dateTimeFormat", "yyyy-MM-dd'T'HH:mm:ss.SSSZ");
        defaultProperty("org.slf4j.simpleLogger.logFile", "System.err");
        System.exit(new CommandLine(new CoordinatorMain()).execute(args));
    }

    private static void defaultProperty(String key, String value) {
        if (System.getProperty(key) == null) {
            System.setProperty(key, value);
        }
    }

    /** The effective configuration: flags over system properties over the file over the defaults. */
    Config configuration(ClassLoader cl) {
        Map<String, Object> flags = new HashMap<String, Object>();
        if (hostname != null) {
            flags.put("courier.coordinator.hostname", hostname);
        }
        if (port != null) {
            flags.put("courier.coordinator.port", port);
        }
        if (httpPort != null) {
            flags.put("courier.coordinator.http.port", httpPort);
        }
        if (scheduler != null) {
            flags.put("courier.coordinator.scheduler.name", scheduler);
        }
        if (epochMillis != null) {
            flags.put("courier.coordinator.epoch", epochMillis + "ms");
        }
        Config params = ConfigFactory.empty();
        for (Map.Entry<String, String> e : schedulerParams.entrySet()) {
            params = params.withValue("courier.coordinator.scheduler.parameters.\"" + e.getKey() + "\"",
                    com.typesafe.config.ConfigValueFactory.fromAnyRef(e.getValue()));
        }
        Config file = ConfigFactory.empty();
        if (conf != null) {
            if (!conf.isFile()) {
                throw new ConfigException.Generic("configuration file " + conf + " does not exist or is not a file");
            }
            file = ConfigFactory.parseFile(conf, ConfigParseOptions.defaults().setAllowMissing(false));
        }
        return ConfigFactory.parseMap(flags).withFallback(params).withFallback(ConfigFactory.systemProperties())
                .withFallback(file).withFallback(ConfigFactory.defaultReference(cl)).resolve();
    }

    @Override
    public Integer call() throws Exception {
        Logger log = LoggerFactory.getLogger(CoordinatorMain.class);
        ClassLoader cl = CoordinatorMain.class.getClassLoader();
        final Coordinator coordinator;
        final CoordinatorSettings settings;
        final Config config;
        try {
            config = configuration(cl);
            settings = CoordinatorSettings.from(config);
            coordinator = Coordinator.start(settings, config, cl);
        } catch (ConfigException | IllegalArgumentException e) {
            System.err.println("courier coordinator: " + e.getMessage());
            return 2;
        }
        final StatusHttpServer http;
        try {
            http = StatusHttpServer.start(settings.httpHost(), settings.httpPort(), () -> coordinator.status(
                    java.time.Duration.ofSeconds(5)));
        } catch (java.io.IOException e) {
            System.err.println("courier coordinator: cannot start the HTTP server on " + settings.httpHost() + ":"
                    + settings.httpPort() + ": " + e.getMessage());
            coordinator.close();
            return 2;
        }
        log.info("coordinator listening at {} (scheduler {}, epoch {} ms); HTTP on {}:{}", coordinator.entryPath(),
                settings.scheduler(), settings.epochMillis(), settings.httpHost(), http.port());
        final CountDownLatch stopped = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            log.info("stopping the coordinator");
            try {
                http.close();
                coordinator.close();
            } finally {
                stopped.countDown();
            }
        }, "courier-coordinator-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        coordinator.system().getWhenTerminated().toCompletableFuture().get();
        // Terminated from inside (not by the hook): stop HTTP too and report an error exit.
        if (stopped.getCount() == 1) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                stopped.await(30, TimeUnit.SECONDS);
                return 0;
            }
            http.close();
            log.error("the coordinator's actor system terminated unexpectedly");
            return 1;
        }
        return 0;
    }
}
