package io.courier.shuffle.proxy.bench;

import io.courier.shuffle.proxy.CourierProxy;
import io.courier.shuffle.proxy.ProxyConfig;
import io.courier.shuffle.proxy.auth.InMemorySecrets;
import io.courier.shuffle.proxy.client.FetchException;
import io.courier.shuffle.proxy.client.SegmentConsumer;
import io.courier.shuffle.proxy.client.SegmentHeader;
import io.courier.shuffle.proxy.client.SegmentStream;
import io.courier.shuffle.proxy.source.DirectoryMapOutputLocator;
import io.courier.shuffle.proxy.source.MapOutputFiles;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.DefaultFileRegion;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;

import java.io.DataOutputStream;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32;

/**
 * Throughput harness (not a test; run {@code bench/proxy-throughput.sh}): one merged loopback connection
 * carrying N concurrent segment streams through two Courier proxies, against a plain Netty zero-copy
 * transfer of the same bytes ({@link DefaultFileRegion}s, one connection). Reports GB/s and process CPU
 * seconds per GB (sender, receiver and readers all run in this JVM in both cases).
 *
 * <p>Arguments: {@code [streams=100] [segmentMiB=4] [rounds=5] [warmups=3]}.
 */
public final class ProxyThroughputBench {
    private static final String JOB = "job_1700000000000_0001";
    private static final String MAP = "attempt_1700000000000_0001_m_000000_0";
    private static final byte[] SECRET = "bench".getBytes(StandardCharsets.UTF_8);

    private ProxyThroughputBench() {
    }

    public static void main(String[] args) throws Exception {
        int streams = args.length > 0 ? Integer.parseInt(args[0]) : 100;
        int segmentMiB = args.length > 1 ? Integer.parseInt(args[1]) : 4;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        int warmups = args.length > 3 ? Integer.parseInt(args[3]) : 3;
        File root = Files.createTempDirectory("courier-bench").toFile();
        try {
            DirectoryMapOutputLocator locator = new DirectoryMapOutputLocator(root);
            MapOutputFiles files = locator.filesOf(JOB, MAP);
            long[] offsets = writeOutput(files, streams, (long) segmentMiB << 20);
            long total = (long) streams * ((long) segmentMiB << 20);
            System.out.printf("bench: %d streams x %d MiB = %.2f GB per round, %d rounds after %d warm-up rounds, "
                    + "%d cores%n", streams, segmentMiB, total / 1e9, rounds, warmups,
                    Runtime.getRuntime().availableProcessors());
            double[][] plain = new double[rounds][];
            double[][] courier = new double[rounds][];
            double[][] streamsApi = new double[rounds][];
            // Warm-up rounds let the JIT compile the hot paths: C2 time would otherwise dominate CPU-s/GB.
            for (int w = 0; w < warmups; w++) {
                runPlain(files.data(), offsets, (long) segmentMiB << 20);
                runCourier(locator, streams, true);
                runCourier(locator, streams, false);
            }
            for (int r = 0; r < rounds; r++) {
                plain[r] = runPlain(files.data(), offsets, (long) segmentMiB << 20);
                courier[r] = runCourier(locator, streams, true);
                streamsApi[r] = runCourier(locator, streams, false);
                System.out.printf("round %d: plain %.3f GB/s %.3f CPU-s/GB | courier (callback) %.3f GB/s %.3f CPU-s/GB"
                        + " | courier (InputStream) %.3f GB/s %.3f CPU-s/GB%n", r + 1, plain[r][0], plain[r][1],
                        courier[r][0], courier[r][1], streamsApi[r][0], streamsApi[r][1]);
            }
            double[] p = median(plain);
            double[] c = median(courier);
            double[] s = median(streamsApi);
            System.out.printf("median: plain %.3f GB/s, %.3f CPU-s/GB | courier (callback) %.3f GB/s, %.3f CPU-s/GB, "
                    + "%.1f %% of plain | courier (InputStream) %.3f GB/s, %.3f CPU-s/GB, %.1f %% of plain%n",
                    p[0], p[1], c[0], c[1], 100 * c[0] / p[0], s[0], s[1], 100 * s[0] / p[0]);
        } finally {
            deleteAll(root);
        }
    }

    private static double[] median(double[][] runs) {
        double[] gbps = new double[runs.length];
        double[] cpu = new double[runs.length];
        for (int i = 0; i < runs.length; i++) {
            gbps[i] = runs[i][0];
            cpu[i] = runs[i][1];
        }
        Arrays.sort(gbps);
        Arrays.sort(cpu);
        return new double[] {gbps[runs.length / 2], cpu[runs.length / 2]};
    }

    /** Random segment bytes plus an index in Hadoop's format (24-byte records, CRC32 trailer). */
    private static long[] writeOutput(MapOutputFiles files, int segments, long segmentBytes) throws IOException {
        if (!files.data().getParentFile().mkdirs()) {
            throw new IOException("cannot create " + files.data().getParentFile());
        }
        Random rnd = new Random(1);
        byte[] chunk = new byte[1 << 20];
        long[] offsets = new long[segments];
        try (FileOutputStream out = new FileOutputStream(files.data())) {
            for (int s = 0; s < segments; s++) {
                offsets[s] = (long) s * segmentBytes;
                for (long w = 0; w < segmentBytes; w += chunk.length) {
                    rnd.nextBytes(chunk);
                    out.write(chunk, 0, (int) Math.min(chunk.length, segmentBytes - w));
                }
            }
        }
        CRC32 crc = new CRC32();
        java.io.ByteArrayOutputStream records = new java.io.ByteArrayOutputStream();
        DataOutputStream d = new DataOutputStream(records);
        for (int s = 0; s < segments; s++) {
            d.writeLong(offsets[s]);
            d.writeLong(segmentBytes);
            d.writeLong(segmentBytes);
        }
        byte[] r = records.toByteArray();
        crc.update(r, 0, r.length);
        try (DataOutputStream idx = new DataOutputStream(new FileOutputStream(files.index()))) {
            idx.write(r);
            idx.writeLong(crc.getValue());
        }
        return offsets;
    }

    /**
     * Courier: two proxies, N concurrent fetches over their one connection; the bytes are discarded either on
     * the event loop ({@code callback}) or by reader threads through {@link SegmentStream}'s InputStream.
     */
    private static double[] runCourier(DirectoryMapOutputLocator locator, int streams, boolean callback)
            throws Exception {
        InMemorySecrets secrets = new InMemorySecrets();
        secrets.put(JOB, SECRET);
        ExecutorService readers = Executors.newFixedThreadPool(Integer.getInteger("bench.readers", 32));
        try (CourierProxy server = new CourierProxy(config(), secrets, locator);
                CourierProxy client = new CourierProxy(config(), secrets, locator)) {
            String serverId = server.start();
            client.start();
            long cpu0 = cpuNanos();
            long t0 = System.nanoTime();
            if (callback) {
                CountDownLatch done = new CountDownLatch(streams);
                AtomicLong bytes = new AtomicLong();
                AtomicLong failures = new AtomicLong();
                for (int s = 0; s < streams; s++) {
                    client.fetch(serverId, JOB, MAP, s, SECRET, new SegmentConsumer() {
                        @Override
                        public void onHeader(SegmentHeader header) {
                        }

                        @Override
                        public void onData(ByteBuffer data) {
                            bytes.addAndGet(data.remaining());
                        }

                        @Override
                        public void onComplete() {
                            done.countDown();
                        }

                        @Override
                        public void onFailure(FetchException failure) {
                            failures.incrementAndGet();
                            done.countDown();
                        }
                    });
                }
                if (!done.await(10, TimeUnit.MINUTES) || failures.get() > 0) {
                    throw new IllegalStateException("courier transfer failed: " + failures.get() + " failures");
                }
                return result(bytes.get(), System.nanoTime() - t0, cpuNanos() - cpu0);
            }
            List<SegmentStream> ss = new ArrayList<>();
            for (int s = 0; s < streams; s++) {
                ss.add(client.fetch(serverId, JOB, MAP, s, SECRET));
            }
            List<Future<Long>> got = new ArrayList<>();
            for (SegmentStream s : ss) {
                got.add(readers.submit(() -> drain(s)));
            }
            long bytes = 0;
            for (Future<Long> f : got) {
                bytes += f.get(10, TimeUnit.MINUTES);
            }
            long t1 = System.nanoTime();
            long cpu1 = cpuNanos();
            if (client.clientCounters().connectionsByPeer().get(serverId) != 1L) {
                throw new IllegalStateException("expected one merged connection");
            }
            return result(bytes, t1 - t0, cpu1 - cpu0);
        } finally {
            readers.shutdownNow();
        }
    }

    /** Defaults, overridden by {@code -Dcourier.proxy.*} system properties. */
    private static ProxyConfig config() {
        java.util.Map<String, String> props = new java.util.HashMap<>();
        for (String k : System.getProperties().stringPropertyNames()) {
            if (k.startsWith("courier.proxy.")) {
                props.put(k, System.getProperty(k));
            }
        }
        return ProxyConfig.fromProperties(props);
    }

    private static long drain(SegmentStream s) throws IOException, InterruptedException {
        s.awaitHeader(1, TimeUnit.MINUTES);
        byte[] buf = new byte[64 * 1024];
        long n = 0;
        try (InputStream in = s.data()) {
            int r;
            while ((r = in.read(buf)) >= 0) {
                n += r;
            }
        }
        return n;
    }

    /** Plain Netty: the server writes every segment as a zero-copy DefaultFileRegion on one connection. */
    private static double[] runPlain(File data, long[] offsets, long segmentBytes) throws Exception {
        EventLoopGroup boss = new NioEventLoopGroup(1);
        EventLoopGroup workers = new NioEventLoopGroup(2);
        try {
            Channel server = new ServerBootstrap().group(boss, workers).channel(NioServerSocketChannel.class)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.pipeline().addLast(new ChannelInboundHandlerAdapter() {
                                @Override
                                public void channelActive(ChannelHandlerContext ctx) throws IOException {
                                    RandomAccessFile raf = new RandomAccessFile(data, "r");
                                    for (long off : offsets) {
                                        ctx.write(new DefaultFileRegion(raf.getChannel(), off, segmentBytes)
                                                .retain());
                                    }
                                    ctx.writeAndFlush(io.netty.buffer.Unpooled.EMPTY_BUFFER).addListener(f -> {
                                        raf.close();
                                        ctx.close();
                                    });
                                }
                            });
                        }
                    }).bind("127.0.0.1", 0).sync().channel();
            AtomicLong received = new AtomicLong();
            CountDownLatch done = new CountDownLatch(1);
            long cpu0 = cpuNanos();
            long t0 = System.nanoTime();
            new Bootstrap().group(workers).channel(NioSocketChannel.class)
                    .handler(new ChannelInboundHandlerAdapter() {
                        @Override
                        public void channelRead(ChannelHandlerContext ctx, Object msg) {
                            ByteBuf b = (ByteBuf) msg;
                            received.addAndGet(b.readableBytes());
                            b.release();
                        }

                        @Override
                        public void channelInactive(ChannelHandlerContext ctx) {
                            done.countDown();
                        }
                    }).connect(server.localAddress()).addListener(ChannelFutureListener.FIRE_EXCEPTION_ON_FAILURE);
            if (!done.await(10, TimeUnit.MINUTES)) {
                throw new IllegalStateException("plain transfer did not finish");
            }
            long t1 = System.nanoTime();
            long cpu1 = cpuNanos();
            server.close().sync();
            return result(received.get(), t1 - t0, cpu1 - cpu0);
        } finally {
            boss.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
            workers.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
        }
    }

    private static double[] result(long bytes, long nanos, long cpuNanos) {
        double gb = bytes / 1e9;
        return new double[] {gb / (nanos / 1e9), (cpuNanos / 1e9) / gb};
    }

    /** Process CPU time (all threads), through the JDK's management extension. */
    private static long cpuNanos() {
        try {
            Object os = ManagementFactory.getOperatingSystemMXBean();
            java.lang.reflect.Method m = Class.forName("com.sun.management.OperatingSystemMXBean")
                    .getMethod("getProcessCpuTime");
            return (Long) m.invoke(os);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("process CPU time is not available in this JVM", e);
        }
    }

    private static void deleteAll(File f) {
        File[] children = f.listFiles();
        if (children != null) {
            for (File c : children) {
                deleteAll(c);
            }
        }
        if (!f.delete() && f.exists()) {
            System.err.println("could not delete " + f);
        }
    }
}
