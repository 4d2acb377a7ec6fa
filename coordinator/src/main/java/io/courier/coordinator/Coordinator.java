package io.courier.coordinator;

import com.typesafe.config.Config;
import io.courier.coordinator.actors.CoordinatorGuardian;
import io.courier.coordinator.actors.Internal;
import io.courier.coordinator.protocol.CoordinatorCommand;
import io.courier.coordinator.status.CoordinatorStatus;
import io.courier.scheduler.CoflowScheduler;
import io.courier.scheduler.registry.SchedulerRegistry;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.BootstrapSetup;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.AskPattern;

/**
 * A running coordinator: its actor system (Artery TCP on the configured address) with the
 * {@link CoordinatorGuardian} at {@code /user}. The caller owns it and must {@link #close()} it. The scheduler
 * is created from the registry before anything starts, so an unknown name or bad parameter fails here with the
 * registry's message.
 */
public final class Coordinator implements AutoCloseable {
    /** The actor system's name; part of the address proxies are configured with. */
    public static final String SYSTEM_NAME = "courier-coordinator";

    private final ActorSystem<CoordinatorCommand> system;
    private final CoordinatorSettings settings;
    private final String id;

    private Coordinator(ActorSystem<CoordinatorCommand> system, CoordinatorSettings settings, String id) {
        this.system = system;
        this.settings = settings;
        this.id = id;
    }

    /**
     * @param fallback configuration under the Pekko settings (usually the loaded configuration itself)
     * @throws IllegalArgumentException for an unknown scheduler or a bad scheduler parameter
     */
    public static Coordinator start(CoordinatorSettings settings, Config fallback, ClassLoader classLoader) {
        CoflowScheduler scheduler = SchedulerRegistry.standard().create(settings.scheduler(),
                settings.schedulerParameters());
        String id = UUID.randomUUID().toString();
        Config config = PekkoSettings.remoting(settings.hostname(), settings.port(), settings.maxFrameBytes(), fallback);
        ActorSystem<CoordinatorCommand> system = ActorSystem.create(
                CoordinatorGuardian.create(scheduler, id, settings.epochMillis(), settings.defaultUpBytesPerSecond(),
                        settings.defaultDownBytesPerSecond(), settings.nodeExpiryMillis(), settings.priorityWeights()),
                SYSTEM_NAME, BootstrapSetup.create(config).withClassloader(classLoader));
        return new Coordinator(system, settings, id);
    }

    /** The path proxies send to: {@code pekko://courier-coordinator@host:port/user}. */
    public String entryPath() {
        return system.address().toString() + "/user";
    }

    /** The actual Artery port (useful when configured as 0). */
    public int port() {
        return (Integer) system.address().getPort().get();
    }

    public String id() {
        return id;
    }

    public CoordinatorSettings settings() {
        return settings;
    }

    public ActorSystem<CoordinatorCommand> system() {
        return system;
    }

    /** A status snapshot from the scheduling actor. */
    public CompletionStage<CoordinatorStatus> status(Duration timeout) {
        return AskPattern.<CoordinatorCommand, CoordinatorStatus>ask(system, Internal.GetStatus::new, timeout,
                system.scheduler());
    }

    /** Terminates the actor system and waits (bounded) for it to stop. */
    @Override
    public void close() {
        system.terminate();
        try {
            system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("coordinator " + id + " did not stop within 30 s", e);
        }
    }
}
