package io.courier.coordinator.client;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.courier.coordinator.PekkoSettings;
import io.courier.coordinator.protocol.ClientCommand;
import io.courier.coordinator.protocol.CoflowRegistered;
import io.courier.coordinator.protocol.NodeInfo;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.pekko.actor.BootstrapSetup;
import org.apache.pekko.actor.typed.ActorSystem;

/**
 * The coordinator client a proxy embeds (in the NodeManager): a small actor system of its own (Artery TCP,
 * Kryo wire format) whose only actor is a {@link ClientActor}. It registers the node, reports every interval
 * from the proxy's {@link ReportSource}, delivers decisions and mode changes to the
 * {@link CoordinatorListener}, falls back when the coordinator goes silent and re-registers when it comes
 * back. Its API has no Hadoop, Netty or Pekko types.
 *
 * <p>Whoever calls {@link #start} owns the client and must {@link #close()} it. Every method is thread-safe.
 */
public final class CoordinatorClient implements AutoCloseable {
    private final ActorSystem<ClientCommand> system;
    private final AtomicReference<Mode> mode;

    private CoordinatorClient(ActorSystem<ClientCommand> system, AtomicReference<Mode> mode) {
        this.system = system;
        this.mode = mode;
    }

    /**
     * Starts the client. {@code classLoader} is the plugin's class loader (the NodeManager's aux-service
     * loader): Pekko loads its configuration and extensions through it, not the thread's context loader.
     */
    public static CoordinatorClient start(ClientSettings settings, NodeInfo node, ReportSource source,
            CoordinatorListener listener, ClassLoader classLoader) {
        Config config = PekkoSettings.remoting(settings.localHost(), settings.localPort(), settings.maxFrameBytes(),
                ConfigFactory.load(classLoader));
        AtomicReference<Mode> mode = new AtomicReference<Mode>(Mode.FALLBACK);
        ActorSystem<ClientCommand> system = ActorSystem.create(
                ClientActor.create(settings, node, source, listener, mode), "courier-proxy",
                BootstrapSetup.create(config).withClassloader(classLoader));
        return new CoordinatorClient(system, mode);
    }

    /** The current mode (as last reported to the listener). */
    public Mode mode() {
        return mode.get();
    }

    /**
     * Tells the coordinator a job's shuffle started on this node (idempotent; remembered and re-sent after a
     * coordinator restart). {@code weight}: the job's {@code courier.coflow.weight}, NaN when unset;
     * {@code priority}: the job priority's name or null.
     */
    public void registerCoflow(String jobId, double weight, String priority, long arrivalMillis) {
        system.tell(new ClientActor.RegisterCoflow(new CoflowRegistered(jobId, weight, priority, arrivalMillis)));
    }

    /** Tells the coordinator a job's shuffle is over on this node (idempotent). */
    public void completeCoflow(String jobId) {
        if (jobId == null || jobId.isEmpty()) {
            throw new IllegalArgumentException("job id must be a non-empty string");
        }
        system.tell(new ClientActor.CompleteCoflow(jobId));
    }

    /**
     * Discovery: the proxy endpoint ({@code host:port}) of the node whose shuffle endpoint is given, empty when
     * no registered node has it; fails with a {@code TimeoutException} when the coordinator does not answer.
     */
    public CompletionStage<Optional<String>> lookupProxy(String shuffleEndpoint) {
        if (shuffleEndpoint == null || shuffleEndpoint.isEmpty()) {
            throw new IllegalArgumentException("shuffle endpoint must be a non-empty string");
        }
        CompletableFuture<Optional<String>> f = new CompletableFuture<Optional<String>>();
        system.tell(new ClientActor.Lookup(shuffleEndpoint, f));
        return f;
    }

    /** Stops the client's actor system and waits (bounded) for it. */
    @Override
    public void close() {
        system.terminate();
        try {
            system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("coordinator client did not stop within 30 s", e);
        }
    }
}
