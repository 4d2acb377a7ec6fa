package io.courier.scheduler.model;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.RandomAccess;
import java.util.function.IntFunction;

/**
 * An unmodifiable list of flows made on first access and then kept: a state built from columns, or a
 * size-hiding view, does not pay for flow objects that no scheduler reads. The memo is a benign race
 * (flows are immutable with final fields, so any thread sees a published flow complete, and two threads
 * at worst make equal flows).
 *
 * <p>The memo may live in a buffer lent by a reusable {@link ColumnarStateBuilder} (then it is longer
 * than the list and is cleared here); such a list is valid only until the builder's next state.
 */
final class LazyFlowList extends AbstractList<Flow> implements RandomAccess {
    private final Flow[] made;
    private final int size;
    private final IntFunction<Flow> maker;
    /**
     * Whether {@code made[0..size)} holds only flows of this list (or nulls). A size-hiding view's buffer is cleared
     * on the first read rather than when the view is made ({@link #clearedOnFirstRead}): a view is made at every
     * decision over all the state's flows, most of them finished, and most schedulers never read a flow object.
     * Volatile: a reader that sees it set sees the buffer cleared; one that does not clears it itself before reading.
     */
    private volatile boolean clean;

    LazyFlowList(int size, IntFunction<Flow> maker) {
        this.made = new Flow[size];
        this.size = size;
        this.maker = maker;
        this.clean = true;
    }

    /** A list of {@code size} flows memoized in {@code buffer[0..size)}, which is cleared first. */
    LazyFlowList(Flow[] buffer, int size, IntFunction<Flow> maker) {
        this(buffer, size, maker, true);
        Arrays.fill(buffer, 0, size, null);
    }

    /**
     * A list of {@code size} flows memoized in {@code buffer[0..size)}, which is cleared when the list is first read.
     * Only for a buffer no other list will take as it is ({@link #keeping}): until that read it still holds an older
     * list's flows.
     */
    static LazyFlowList clearedOnFirstRead(Flow[] buffer, int size, IntFunction<Flow> maker) {
        return new LazyFlowList(buffer, size, maker, false);
    }

    private LazyFlowList(Flow[] buffer, int size, IntFunction<Flow> maker, boolean clean) {
        this.made = buffer;
        this.size = size;
        this.maker = maker;
        this.clean = clean;
    }

    /**
     * A list of {@code size} flows memoized in {@code buffer[0..size)} as it is: the flows already there are what
     * {@code maker} would make (a revised state whose builder cleared the entries of the flows it changed).
     */
    static LazyFlowList keeping(Flow[] buffer, int size, IntFunction<Flow> maker) {
        return new LazyFlowList(buffer, size, maker, true);
    }

    @Override
    public Flow get(int index) {
        if (index >= size) {
            throw new IndexOutOfBoundsException("flow index " + index + " of " + size);
        }
        if (!clean) {
            Arrays.fill(made, 0, size, null);
            clean = true;
        }
        Flow f = made[index]; // throws for a negative index, like any list
        if (f == null) {
            f = maker.apply(index);
            made[index] = f;
        }
        return f;
    }

    @Override
    public int size() {
        return size;
    }
}
