package io.courier.shuffle.proxy.bench;

import io.courier.shuffle.proxy.CourierProxy;
import io.courier.shuffle.proxy.ProxyConfig;
import io.courier.shuffle.proxy.ProxyTransport;
import io.courier.shuffle.proxy.auth.InMemorySecrets;
import io.courier.shuffle.proxy.client.FetchException;
import io.courier.shuffle.proxy.client.SegmentConsumer;
import io.courier.shuffle.proxy.client.SegmentHeader;
import io.courier.shuffle.proxy.client.SegmentStream;
import io.courier.shuffle.proxy.protocol.CreditFrame;
import io.courier.shuffle.proxy.protocol.DataFrame;
import io.courier.shuffle.proxy.protocol.FrameDecoder;
import io.courier.shuffle.proxy.protocol.FrameEncoder;
import io.courier.shuffle.proxy.protocol.FrameType;
import io.courier.shuffle.proxy.protocol.Wire;
import io.courier.shuffle.proxy.source.DirectoryMapOutputLocator;
import io.courier.shuffle.proxy.source.MapOutputFiles;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.DefaultFileRegion;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.channel.socket.SocketChannel;

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
 * seconds per GB (sender, receiver and readers all run in this JVM in both cases). A {@code framed} plain
 * variant sends Courier's DATA frames without Courier: the floor that the protocol's framing sets.
 *
 * <p>Arguments: {@code [streams=100] [segmentMiB=16] [rounds=5] [warmups=3]}.
 */
public final class ProxyThroughputBench {
    private static final String JOB = "job_1700000000000_0001";
    private static final String MAP = "attempt_1700000000000_0001_m_000000_0";
    private static final byte[] SECRET = "bench".getBytes(StandardCharsets.UTF_8);

    private ProxyThroughputBench() {
    }

    public static void main(String[] args) throws Exception {
        int streams = args.length > 0 ? Integer.parseInt(args[0]) : 100;
        int segmentMiB = args.length > 1 ? Integer.parseInt(args[1]) : 16;
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
            // Variants: "plain", "callback" or "stream", optionally "@<setting>=<value>" (e.g.
            // callback@transferTo.allowed=false, plain@transport=nio), so that settings are compared in one run.
            // Each variant is compared with the plain variant listed last before it (else the first plain one).
            String[] variants = System.getProperty("bench.variants", "plain,callback,stream").split(",");
            int k = variants.length;
            int[] baseOf = baselines(variants);
            double[][][] results = new double[k][rounds][];
            // Warm-up rounds let the JIT compile the hot paths: C2 time would otherwise dominate CPU-s/GB.
            for (int w = 0; w < warmups; w++) {
                for (String v : variants) {
                    run(v, files, offsets, segmentMiB, locator, streams);
                }
            }
            for (int r = 0; r < rounds; r++) {
                // Rotate the order every round, so that no variant always runs first (on a just-idle host).
                StringBuilder line = new StringBuilder("round " + (r + 1) + ":");
                for (int i = 0; i < k; i++) {
                    int v = (i + r) % k;
                    results[v][r] = run(variants[v], files, offsets, segmentMiB, locator, streams);
                }
                for (int v = 0; v < k; v++) {
                    line.append(String.format(" | %s %.3f GB/s %.3f CPU-s/GB (%.3f without JIT; sys %.0f%%, "
                            + "JIT %.0f%%)",
                            variants[v], results[v][r][0], results[v][r][1], results[v][r][5], results[v][r][2],
                            results[v][r][4]));
                    int plainAt = baseOf[v];
                    if (plainAt >= 0 && v != plainAt) {
                        line.append(String.format(" %.1f %%", 100 * results[v][r][0] / results[plainAt][r][0]));
                    }
                }
                System.out.println(line);
            }
            for (int v = 0; v < k; v++) {
                double[] m = median(results[v]);
                StringBuilder line = new StringBuilder(String.format("median %s: %.3f GB/s, %.3f CPU-s/GB (%.3f "
                        + "without "
                        + "JIT threads)", variants[v], m[0], m[1], m[2]));
                int plainAt = baseOf[v];
                if (plainAt >= 0 && v != plainAt) {
                    double[] ratio = new double[rounds];
                    double[] cpuRatio = new double[rounds];
                    double[] cpuNoJitRatio = new double[rounds];
                    for (int r = 0; r < rounds; r++) {
                        ratio[r] = 100 * results[v][r][0] / results[plainAt][r][0];
                        cpuRatio[r] = results[v][r][1] / results[plainAt][r][1];
                        cpuNoJitRatio[r] = results[v][r][5] / results[plainAt][r][5];
                    }
                    line.append(String.format("; per-round %% of " + variants[plainAt] + " GB/s: median %.1f (min %.1f, max %.1f); "
                            + "CPU-s/GB vs plain: median x%.2f (x%.2f without JIT)", med(ratio), min(ratio),
                            max(ratio), med(cpuRatio), med(cpuNoJitRatio)));
                }
                System.out.println(line);
            }
        } finally {
            deleteAll(root);
        }
    }

    /** For every variant, the index of the plain variant it is compared with; -1 when there is none. */
    private static int[] baselines(String[] variants) {
        int first = -1;
        for (int v = 0; v < variants.length && first < 0; v++) {
            first = isBaseline(variants[v]) ? v : -1;
        }
        int[] base = new int[variants.length];
        int last = first;
        for (int v = 0; v < variants.length; v++) {
            if (isBaseline(variants[v])) {
                last = v;
            }
            base[v] = last;
        }
        return base;
    }

    private static double[] run(String variant, MapOutputFiles files, long[] offsets, int segmentMiB,
            DirectoryMapOutputLocator locator, int streams) throws Exception {
        long[] before = procStat();
        double[] r = runVariant(variant, files, offsets, segmentMiB, locator, streams);
        long[] after = procStat();
        double bytesMiB = (double) streams * segmentMiB;
        long ticks = (after[0] - before[0]) + (after[1] - before[1]);
        return new double[] {r[0], r[1], ticks == 0 ? 0 : 100.0 * (after[1] - before[1]) / ticks,
                (after[2] - before[2]) / bytesMiB, ticks == 0 ? 0 : 100.0 * (after[3] - before[3]) / ticks,
                ticks == 0 ? r[1] : r[1] * (1 - (double) (after[3] - before[3]) / ticks)};
    }

    /** Process user and system CPU ticks (/proc/self/stat) and context switches of all threads; zeros elsewhere. */
    private static long[] procStat() {
        long[] r = new long[4];
        try {
            String stat = new String(Files.readAllBytes(new File("/proc/self/stat").toPath()), StandardCharsets.UTF_8);
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            r[0] = Long.parseLong(f[11]);
            r[1] = Long.parseLong(f[12]);
            File[] tasks = new File("/proc/self/task").listFiles();
            if (tasks != null) {
                for (File t : tasks) {
                    try {
                        String ts = new String(Files.readAllBytes(new File(t, "stat").toPath()),
                                StandardCharsets.UTF_8);
                        if (ts.contains("(C1 Compiler") || ts.contains("(C2 Compiler")) {
                            String[] tf = ts.substring(ts.lastIndexOf(')') + 2).split(" ");
                            r[3] += Long.parseLong(tf[11]) + Long.parseLong(tf[12]);
                        }
                        for (String line : Files.readAllLines(new File(t, "status").toPath())) {
                            if (line.contains("ctxt_switches")) {
                                r[2] += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                            }
                        }
                    } catch (IOException gone) {
                        // the thread ended meanwhile
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            return new long[4];
        }
        return r;
    }

    /** A plain transfer of whole segments: what the other variants are compared with (a framed one is compared too). */
    private static boolean isBaseline(String variant) {
        String v = variant.trim();
        return v.startsWith("plain") && !v.contains("framed"); // also matches "unframed"
    }

    private static double[] runVariant(String variant, MapOutputFiles files, long[] offsets, int segmentMiB,
            DirectoryMapOutputLocator locator, int streams) throws Exception {
        String[] kindAndMode = variant.trim().split("@");
        String mode = kindAndMode.length > 1 ? kindAndMode[1] : null;
        switch (kindAndMode[0]) {
            case "plain":
                // The proxies' transport setting (-Dcourier.proxy.transport, or plain@transport=nio|epoll), so
                // that plain and Courier run on the same transport unless a variant says otherwise. Settings join
                // with '+': sndbuf=N (the plain sender's SO_SNDBUF, bytes in flight); framed (Courier's DATA framing,
                // see runPlain) or framed=N (N-byte blocks: the protocol allows 64 KiB, larger shows what that limit
                // costs); unframed (the same interleaved blocks without headers: what the headers cost); credits (with
                // framed: CREDIT frames come back as from Courier's receiver); e.g. plain@sndbuf=65536+framed. Framed
                // variants are compared with the plain one before them. decoder (with framed): the receiver runs
                // Courier's FrameDecoder instead of the minimal parser, so the floor includes Courier's decoding.
                // runs=N (with framed): N consecutive blocks (of N streams) share one DATA_RUN header, as Courier's
                // sender writes them by default.
                PlainTransfer plain = new PlainTransfer(config(null).transport());
                for (String setting : mode == null ? new String[0] : mode.split("\\+")) {
                    if (setting.startsWith("sndbuf=")) {
                        plain.sendBuffer = Integer.parseInt(setting.substring("sndbuf=".length()));
                    } else if (setting.equals("framed") || setting.equals("unframed")) {
                        plain.block = plain.block > 0 ? plain.block : Wire.MAX_DATA;
                        plain.headers &= setting.equals("framed");
                    } else if (setting.equals("credits")) {
                        plain.credits = true; // with framed: the receiver returns CREDIT frames as Courier's does
                    } else if (setting.startsWith("framed=")) {
                        plain.block = Integer.parseInt(setting.substring("framed=".length()));
                    } else if (setting.startsWith("runs=")) {
                        plain.runs = Integer.parseInt(setting.substring("runs=".length()));
                    } else if (setting.equals("decoder")) {
                        plain.decoder = true;
                    } else {
                        plain.transport = config(setting).transport();
                    }
                }
                return runPlain(files.data(), offsets, (long) segmentMiB << 20, plain);
            case "callback":
                return runCourier(locator, streams, true, mode);
            case "stream":
                return runCourier(locator, streams, false, mode);
            default:
                throw new IllegalArgumentException("unknown bench variant " + variant);
        }
    }

    /** Medians of GB/s, CPU-s/GB and CPU-s/GB without the JIT compiler threads. */
    private static double[] median(double[][] runs) {
        double[] gbps = new double[runs.length];
        double[] cpu = new double[runs.length];
        double[] cpuNoJit = new double[runs.length];
        for (int i = 0; i < runs.length; i++) {
            gbps[i] = runs[i][0];
            cpu[i] = runs[i][1];
            cpuNoJit[i] = runs[i][5];
        }
        return new double[] {med(gbps), med(cpu), med(cpuNoJit)};
    }

    private static double med(double[] v) {
        double[] c = v.clone();
        Arrays.sort(c);
        return c.length % 2 == 1 ? c[c.length / 2] : (c[c.length / 2 - 1] + c[c.length / 2]) / 2;
    }

    private static double min(double[] v) {
        double m = Double.POSITIVE_INFINITY;
        for (double x : v) {
            m = Math.min(m, x);
        }
        return m;
    }

    private static double max(double[] v) {
        double m = Double.NEGATIVE_INFINITY;
        for (double x : v) {
            m = Math.max(m, x);
        }
        return m;
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
    private static double[] runCourier(DirectoryMapOutputLocator locator, int streams, boolean callback, String mode)
            throws Exception {
        InMemorySecrets secrets = new InMemorySecrets();
        secrets.put(JOB, SECRET);
        ExecutorService readers = Executors.newFixedThreadPool(Integer.getInteger("bench.readers", 32));
        try (CourierProxy server = new CourierProxy(config(mode), secrets, locator);
                CourierProxy client = new CourierProxy(config(mode), secrets, locator)) {
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
                double[] res = result(bytes.get(), System.nanoTime() - t0, cpuNanos() - cpu0);
                ioThreadCpu("courier-proxy-io", bytes.get());
                return res;
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
            ioThreadCpu("courier-proxy-io", bytes);
            if (client.clientCounters().connectionsByPeer().get(serverId) != 1L) {
                throw new IllegalStateException("expected one merged connection");
            }
            return result(bytes, t1 - t0, cpu1 - cpu0);
        } finally {
            readers.shutdownNow();
        }
    }

    /** Defaults, overridden by {@code -Dcourier.proxy.*} system properties. */
    private static ProxyConfig config(String override) {
        java.util.Map<String, String> props = new java.util.HashMap<>();
        for (String k : System.getProperties().stringPropertyNames()) {
            if (k.startsWith("courier.proxy.")) {
                props.put(k, System.getProperty(k));
            }
        }
        if (override != null) {
            // A variant's "@key=value" overrides one courier.proxy.* setting, e.g. callback@transferTo.allowed=false.
            String[] kv = override.split("=", 2);
            props.put("courier.proxy." + kv[0], kv.length > 1 ? kv[1] : "true");
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

    /**
     * Plain Netty: the server writes every segment as a zero-copy DefaultFileRegion on one connection. With
     * {@code block > 0} it writes them as Courier's wire does, without Courier: per block one DATA header (from
     * {@link FrameEncoder#dataHeader}; none when {@code headers} is false) and one file region of {@code block}
     * bytes, the segments' blocks interleaved round-robin, all queued at once, and the receiver parses the frames
     * ({@link FrameCounter}) — the cost of the protocol's framing alone, with no streams, credit, scheduling or
     * send budget; with {@code credits} the receiver sends Courier's CREDIT traffic back (the sender discards it);
     * with {@code runs > 0} every {@code runs} consecutive blocks share one DATA_RUN header instead. The figure counts
     * payload bytes only.
     */
    private static double[] runPlain(File data, long[] offsets, long segmentBytes, PlainTransfer plain)
            throws Exception {
        ProxyTransport transport = plain.transport;
        if (plain.decoder && (!plain.headers || plain.block == 0 || plain.credits)) {
            throw new IllegalArgumentException("the decoder setting needs framed blocks and no credits");
        }
        if (plain.runs > 0 && (!plain.headers || plain.block == 0 || plain.block > Wire.MAX_DATA || plain.credits
                || plain.runs > Wire.MAX_RUN_BLOCKS)) {
            throw new IllegalArgumentException("the runs setting needs framed blocks of at most " + Wire.MAX_DATA
                    + " bytes, no credits and at most " + Wire.MAX_RUN_BLOCKS + " blocks per run");
        }
        EventLoopGroup boss = transport.newGroup(1, new DefaultThreadFactory("plain-accept", true));
        EventLoopGroup workers = transport.newGroup(2, new DefaultThreadFactory("plain-io", true));
        try {
            ServerBootstrap sb = new ServerBootstrap().group(boss, workers).channel(transport.serverChannel());
            if (plain.sendBuffer > 0) {
                sb.childOption(io.netty.channel.ChannelOption.SO_SNDBUF, plain.sendBuffer);
            }
            Channel server = sb
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.pipeline().addLast(new ChannelInboundHandlerAdapter() {
                                @Override
                                public void channelRead(ChannelHandlerContext ctx, Object msg) {
                                    io.netty.util.ReferenceCountUtil.release(msg); // CREDIT frames: read, not obeyed
                                }

                                @Override
                                public void channelActive(ChannelHandlerContext ctx) throws IOException {
                                    RandomAccessFile raf = new RandomAccessFile(data, "r");
                                    if (plain.block > 0) {
                                        // The regions share the file's channel: retained, so that none closes it.
                                        for (long at = 0; at < segmentBytes; at += plain.block) {
                                            int n = (int) Math.min(plain.block, segmentBytes - at);
                                            for (int s = 0; s < offsets.length; s++) {
                                                if (plain.runs > 0) {
                                                    if (s % plain.runs == 0) {
                                                        int k = Math.min(plain.runs, offsets.length - s);
                                                        ctx.write(runHeader(ctx.alloc(), s + 1, k, n));
                                                    }
                                                } else if (plain.headers) {
                                                    ctx.write(header(ctx.alloc(), s + 1, n));
                                                }
                                                ctx.write(new DefaultFileRegion(raf.getChannel(), offsets[s] + at, n)
                                                        .retain());
                                            }
                                        }
                                    } else {
                                        for (long off : offsets) {
                                            ctx.write(new DefaultFileRegion(raf.getChannel(), off, segmentBytes)
                                                    .retain());
                                        }
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
            // Behind Courier's FrameDecoder (the decoder setting) DATA frames arrive parsed; no counter then.
            FrameCounter frames = plain.block > 0 && plain.headers && !plain.decoder
                    ? new FrameCounter(plain.block, plain.credits ? offsets.length : 0, config(null).streamWindow() / 2)
                    : null;
            CountDownLatch done = new CountDownLatch(1);
            long cpu0 = cpuNanos();
            long t0 = System.nanoTime();
            ChannelInboundHandlerAdapter counter = new ChannelInboundHandlerAdapter() {
                @Override
                public void channelRead(ChannelHandlerContext ctx, Object msg) {
                    if (msg instanceof DataFrame) {
                        DataFrame d = (DataFrame) msg;
                        received.addAndGet(d.content().readableBytes());
                        d.release();
                        return;
                    }
                    ByteBuf b = (ByteBuf) msg;
                    received.addAndGet(frames == null ? b.readableBytes() : frames.payloadIn(ctx, b));
                    b.release();
                }

                @Override
                public void channelReadComplete(ChannelHandlerContext ctx) {
                    if (plain.credits) {
                        ctx.flush(); // the credits of one read batch in one write, as Courier flushes them
                    }
                }

                @Override
                public void channelInactive(ChannelHandlerContext ctx) {
                    done.countDown();
                }
            };
            new Bootstrap().group(workers).channel(transport.socketChannel())
                    .handler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            // Courier's encoder writes the CREDIT frames, as on a proxy's fetching connection.
                            ch.pipeline().addLast(new FrameEncoder());
                            if (plain.decoder) {
                                ch.pipeline().addLast(new FrameDecoder());
                            }
                            ch.pipeline().addLast(counter);
                        }
                    }).connect(server.localAddress()).addListener(ChannelFutureListener.FIRE_EXCEPTION_ON_FAILURE);
            if (!done.await(10, TimeUnit.MINUTES)) {
                throw new IllegalStateException("plain transfer did not finish");
            }
            long t1 = System.nanoTime();
            long cpu1 = cpuNanos();
            ioThreadCpu("plain-io", received.get());
            server.close().sync();
            return result(received.get(), t1 - t0, cpu1 - cpu0);
        } finally {
            boss.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
            workers.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
        }
    }

    /** The settings of a plain variant (see {@link #runVariant}); filled while parsing, then only read. */
    private static final class PlainTransfer {
        ProxyTransport transport;
        int sendBuffer;
        int block;
        boolean headers = true;
        boolean credits;
        boolean decoder;
        int runs;

        PlainTransfer(ProxyTransport transport) {
            this.transport = transport;
        }
    }

    /** A DATA frame's header: the protocol's own up to 64 KiB; above, the same header with a longer length. */
    private static ByteBuf header(ByteBufAllocator alloc, int streamId, int length) {
        if (length <= Wire.MAX_DATA) {
            return FrameEncoder.dataHeader(alloc, streamId, length);
        }
        ByteBuf h = FrameEncoder.dataHeader(alloc, streamId, 0);
        return h.setInt(0, h.getInt(0) + length); // the length field counts preamble, stream id and payload
    }

    /** The DATA_RUN header of {@code k} blocks of {@code n} bytes, of streams {@code firstStream} onwards. */
    private static ByteBuf runHeader(ByteBufAllocator alloc, int firstStream, int k, int n) {
        int[] streams = new int[k];
        int[] lengths = new int[k];
        for (int i = 0; i < k; i++) {
            streams[i] = firstStream + i;
            lengths[i] = n;
        }
        return FrameEncoder.dataRunHeader(alloc, streams, lengths, k);
    }

    /**
     * Counts the payload bytes of the DATA frames in a byte stream cut anywhere: the least a receiver of the
     * protocol does (find each frame's length, skip its payload). Event-loop confined.
     */
    private static final class FrameCounter {
        private static final int HEADER = Wire.LENGTH_FIELD + Wire.PREAMBLE + 4;
        private final byte[] header = new byte[HEADER];
        private final ByteBuffer headerView = ByteBuffer.wrap(header);
        private final int maxPayload;
        /** Per stream, payload bytes not yet credited back; null when no credit is returned. */
        private final long[] unacked;
        private final int creditEvery;
        private int headerHave;
        private int entriesLeft;
        private int payloadLeft;
        private int stream;

        /** @param streams when above 0, a CREDIT frame goes back for every {@code creditEvery} bytes of a stream */
        FrameCounter(int maxPayload, int streams, int creditEvery) {
            this.maxPayload = maxPayload;
            this.unacked = streams > 0 ? new long[streams + 1] : null;
            this.creditEvery = creditEvery;
        }

        /** The payload bytes in {@code b}; throws on a frame this harness did not send. */
        long payloadIn(ChannelHandlerContext ctx, ByteBuf b) {
            long payload = 0;
            while (b.isReadable()) {
                if (entriesLeft > 0) {
                    int k = Math.min(entriesLeft, b.readableBytes());
                    b.skipBytes(k);
                    entriesLeft -= k;
                    continue;
                }
                if (payloadLeft > 0) {
                    int k = Math.min(payloadLeft, b.readableBytes());
                    b.skipBytes(k);
                    payloadLeft -= k;
                    payload += k;
                    if (unacked != null && (unacked[stream] += k) >= creditEvery) {
                        ctx.write(new CreditFrame(stream, (int) unacked[stream]), ctx.voidPromise());
                        unacked[stream] = 0;
                    }
                    continue;
                }
                int k = Math.min(HEADER - headerHave, b.readableBytes());
                b.readBytes(header, headerHave, k);
                headerHave += k;
                if (headerHave == HEADER) {
                    headerHave = 0;
                    int length = headerView.getInt(0) - Wire.PREAMBLE - 4;
                    if (header[Wire.LENGTH_FIELD + 1] == FrameType.DATA_RUN.code()) {
                        // The count is read; its entries are skipped and its payloads counted as one (no credits).
                        int count = headerView.getInt(Wire.LENGTH_FIELD + Wire.PREAMBLE);
                        entriesLeft = count * Wire.RUN_ENTRY;
                        payloadLeft = length - count * Wire.RUN_ENTRY;
                        continue;
                    }
                    if (length < 0 || length > maxPayload || header[Wire.LENGTH_FIELD] != Wire.VERSION) {
                        throw new IllegalStateException("framed plain transfer: bad frame header, payload " + length);
                    }
                    payloadLeft = length;
                    stream = headerView.getInt(Wire.LENGTH_FIELD + Wire.PREAMBLE);
                }
            }
            return payload;
        }
    }

    /**
     * With {@code -Dbench.threads=true}, prints the CPU seconds per GB (total and user) of each event-loop thread whose
     * name starts with {@code prefix}: a variant's loops are created with it, so their whole CPU time is this
     * round's (the server proxy's pool has the lower number; in a plain variant the sender and the receiver share
     * one pool). Shows which side limits the throughput when both loops are near a core each.
     */
    private static void ioThreadCpu(String prefix, long bytes) {
        if (!Boolean.getBoolean("bench.threads")) {
            return;
        }
        java.lang.management.ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        java.util.TreeMap<String, String> byName = new java.util.TreeMap<>();
        double gb = bytes / 1e9;
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith(prefix)) {
                byName.put(t.getName(), String.format("%.3f (user %.3f)", mx.getThreadCpuTime(t.getId()) / 1e9 / gb,
                        mx.getThreadUserTime(t.getId()) / 1e9 / gb));
            }
        }
        StringBuilder sb = new StringBuilder("  event-loop CPU-s/GB:");
        byName.forEach((name, cpu) -> sb.append(' ').append(name).append(' ').append(cpu));
        System.out.println(sb);
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
