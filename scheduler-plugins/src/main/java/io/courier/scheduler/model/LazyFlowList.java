package io.courier.scheduler.model;

import java.util.AbstractList;
import java.util.RandomAccess;
import java.util.function.IntFunction;

/**
 * An unmodifiable list of flows made on first access and then kept: a state built from columns, or a
 * size-hiding view, does not pay for flow objects that no scheduler reads. The memo is a benign race
 * (flows are immutable with final fields, so any thread sees a published flow complete, and two threads
 * at worst make equal flows).
 */
final class LazyFlowList extends AbstractList<Flow> implements RandomAccess {
    private final Flow[] made;
    private final IntFunction<Flow> maker;

    LazyFlowList(int size, IntFunction<Flow> maker) {
        this.made = new Flow[size];
        this.maker = maker;
    }

    @Override
    public Flow get(int index) {
        Flow f = made[index]; // throws for a bad index, like any list
        if (f == null) {
            f = maker.apply(index);
            made[index] = f;
        }
        return f;
    }

    @Override
    public int size() {
        return made.length;
    }
}
