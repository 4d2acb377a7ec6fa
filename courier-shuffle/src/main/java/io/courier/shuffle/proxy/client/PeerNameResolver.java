package io.courier.shuffle.proxy.client;

import io.netty.resolver.AddressResolver;
import io.netty.resolver.AddressResolverGroup;
import io.netty.resolver.InetNameResolver;
import io.netty.util.NetUtil;
import io.netty.util.concurrent.DefaultEventExecutor;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.Promise;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Resolves peer proxies' host names off the event loops. Netty's default resolver calls the JDK's blocking
 * lookup on the event loop that connects, so one slow or unresolvable name (a task may name any source host)
 * would stall every connection of that loop for as long as the lookup takes. Here an address literal is taken
 * as it is, and a name is looked up on one of at most {@link #LOOKUP_THREADS} {@code courier-proxy-resolver}
 * threads (more lookups at once wait for one), so one slow name holds up neither the loop nor another name;
 * the connect continues on the loop when the lookup is done, and the JDK's own cache still answers repeated
 * names at once. Owned by one {@link ProxyClient}, which closes it (threads start with lookups and end after
 * 30 s idle). Thread-safe.
 */
final class PeerNameResolver extends AddressResolverGroup<InetSocketAddress> {
    /** The lookup itself: the JDK's by default; tests slow it down. */
    interface Lookup {
        InetAddress[] all(String host) throws UnknownHostException;
    }

    /** Name lookups at once. */
    static final int LOOKUP_THREADS = 8;
    /** Completes the resolvers' promises (their listeners then connect on the event loop). */
    private final EventExecutor notifier = new DefaultEventExecutor(new DefaultThreadFactory(
            "courier-proxy-resolver-notify", true));
    private final ThreadPoolExecutor lookups;
    private final Lookup lookup;

    PeerNameResolver() {
        this(InetAddress::getAllByName);
    }

    PeerNameResolver(Lookup lookup) {
        this.lookup = lookup;
        this.lookups = new ThreadPoolExecutor(LOOKUP_THREADS, LOOKUP_THREADS, 30, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), new DefaultThreadFactory("courier-proxy-resolver", true));
        this.lookups.allowCoreThreadTimeOut(true);
    }

    /** Runs {@code all(host)} for {@code done}: at once for an address literal, else on a lookup thread. */
    private void lookUp(String host, Consumer<InetAddress[]> done, Promise<?> promise) {
        boolean literal = NetUtil.isValidIpV4Address(host) || NetUtil.isValidIpV6Address(host);
        Runnable task = () -> {
            try {
                // The JDK parses a literal without asking any name service.
                done.accept(literal ? InetAddress.getAllByName(host) : lookup.all(host));
            } catch (UnknownHostException | RuntimeException e) {
                promise.tryFailure(e);
            }
        };
        if (literal) {
            task.run();
        } else {
            lookups.execute(task);
        }
    }

    @Override
    protected AddressResolver<InetSocketAddress> newResolver(EventExecutor loop) {
        return new InetNameResolver(notifier) {
            @Override
            protected void doResolve(String host, Promise<InetAddress> promise) {
                lookUp(host, all -> promise.trySuccess(all[0]), promise);
            }

            @Override
            protected void doResolveAll(String host, Promise<List<InetAddress>> promise) {
                lookUp(host, all -> promise.trySuccess(Arrays.asList(all)), promise);
            }
        }.asAddressResolver();
    }

    /** Closes the resolvers and stops the threads. */
    @Override
    public void close() {
        super.close();
        lookups.shutdownNow();
        notifier.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    }
}
