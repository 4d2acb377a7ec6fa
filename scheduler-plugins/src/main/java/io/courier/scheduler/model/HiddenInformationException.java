package io.courier.scheduler.model;

/**
 * Thrown when a scheduler reads information it did not declare in {@code needs()}, most importantly the
 * size of a flow from a non-clairvoyant scheduler.
 */
public final class HiddenInformationException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    public HiddenInformationException(String message) {
        super(message);
    }
}
