package io.courier.scheduler.primitives;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.PriorityQueue;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link LevelHeap} must leave entries in exactly the order {@code java.util.PriorityQueue} would (MaxMin's results
 * depend on which of two equal levels is taken first): the same random adds and polls, with many equal levels,
 * give the same entries at the top at every step.
 */
class LevelHeapTest {
    @Test
    void siftsExactlyAsPriorityQueue() {
        Random rnd = new Random(5);
        for (int trial = 0; trial < 200; trial++) {
            int capacity = 1 + rnd.nextInt(40);
            LevelHeap heap = new LevelHeap(capacity);
            PriorityQueue<double[]> queue = new PriorityQueue<>((a, b) -> Double.compare(a[0], b[0]));
            int next = 0;
            for (int step = 0; step < 400; step++) {
                if (queue.size() < capacity && (queue.isEmpty() || rnd.nextInt(3) > 0)) {
                    double level = rnd.nextInt(6) * 0.5; // few distinct levels: many ties
                    heap.add(level, next);
                    queue.add(new double[] {level, next});
                    next++;
                } else {
                    heap.poll();
                    queue.poll();
                }
                assertEquals(queue.isEmpty(), heap.isEmpty(), "trial " + trial + " step " + step);
                if (!queue.isEmpty()) {
                    assertEquals((int) queue.peek()[1], heap.peekResource(), "trial " + trial + " step " + step);
                    assertEquals(queue.peek()[0], heap.peekLevel(), 0.0);
                }
            }
        }
    }
}
