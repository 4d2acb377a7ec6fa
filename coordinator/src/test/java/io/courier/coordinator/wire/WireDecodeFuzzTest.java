package io.courier.coordinator.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.courier.coordinator.protocol.CoordinatorMessage;
import java.lang.management.ManagementFactory;
import org.apache.pekko.actor.ExtendedActorSystem;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * Fuzzes what a coordinator or proxy does with the bytes of a remote message: Pekko hands them to
 * {@link KryoWireSerializer#fromBinary}. Whatever the bytes, the result is a wire message that encodes back to a
 * message equal to it, or a {@link WireFormatException} (Pekko logs and drops the message); never another
 * exception, and never more allocation than a small multiple of the frame (declared lengths are checked before
 * anything is allocated, and frames above {@code courier.wire.max-frame-bytes} are not decoded at all).
 * The actor system is local: actor references in fuzzed frames are resolved, never contacted.
 * Seeds: {@code WireDecodeFuzzTestInputs/} in test resources.
 */
class WireDecodeFuzzTest {
    /** Allocation allowed per decode: Kryo's per-call state plus a few copies of the frame. */
    private static final long ALLOCATION_SLACK = 4L << 20;
    private static ActorTestKit kit;
    private static KryoWireSerializer serializer;

    @BeforeAll
    static void start() {
        kit = ActorTestKit.create("wire-fuzz");
        serializer = new KryoWireSerializer((ExtendedActorSystem) Adapter.toClassic(kit.system()));
    }

    @AfterAll
    static void stop() {
        kit.shutdownTestKit();
    }

    @FuzzTest(maxDuration = "5m")
    void arbitraryBytesDecodeToAMessageOrAWireFormatError(byte[] frame) {
        Object decoded = decode(frame);
        if (allocatedByDecoding(frame) > 8L * frame.length + ALLOCATION_SLACK) {
            // The first decode of a kind loads (and Jazzer instruments) classes; only a warm decode counts.
            long again = allocatedByDecoding(frame);
            if (again > 8L * frame.length + ALLOCATION_SLACK) {
                fail("decoding " + frame.length + " bytes allocated " + again + " bytes");
            }
        }
        if (decoded != null) {
            assertTrue(decoded instanceof CoordinatorMessage, String.valueOf(decoded));
            assertEquals(decoded, serializer.fromBinary(serializer.toBinary(decoded)), "re-encoding changes "
                    + decoded);
        }
    }

    /** The message, or null for a {@link WireFormatException}; any other failure fails the test. */
    private static Object decode(byte[] frame) {
        try {
            return serializer.fromBinary(frame);
        } catch (WireFormatException e) {
            return null;
        } catch (RuntimeException | Error e) {
            fail("decoding " + frame.length + " bytes failed with " + e.getClass().getName()
                    + " instead of a WireFormatException", e);
            return null;
        }
    }

    /** Bytes this thread allocated decoding {@code frame} once (0 where the JVM does not say). */
    private static long allocatedByDecoding(byte[] frame) {
        long before = Allocation.ofThisThread();
        decode(frame);
        return before < 0 ? 0 : Allocation.ofThisThread() - before;
    }

    /** Bytes allocated by the current thread, or -1 where the JVM does not say (HotSpot does). */
    static final class Allocation {
        private Allocation() {
        }

        static long ofThisThread() {
            java.lang.management.ThreadMXBean t = ManagementFactory.getThreadMXBean();
            if (t instanceof com.sun.management.ThreadMXBean) {
                return ((com.sun.management.ThreadMXBean) t).getThreadAllocatedBytes(Thread.currentThread().getId());
            }
            return -1;
        }
    }
}
