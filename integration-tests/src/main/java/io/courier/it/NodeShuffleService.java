package io.courier.it;

/**
 * Which class a mini cluster's NodeManagers run as the {@code mapreduce_shuffle} auxiliary service. Named by class
 * name: the NodeManager loads it from its configuration.
 */
public enum NodeShuffleService {
    /** Hadoop's own HTTP {@code ShuffleHandler}. */
    STOCK("org.apache.hadoop.mapred.ShuffleHandler"),
    /**
     * Courier's handler: serves stock HTTP fetches to jobs that do not opt in, and runs the node's Courier proxy
     * for jobs whose reducers use {@link MiniCourierCluster#COURIER_CONSUMER}.
     */
    COURIER("io.courier.shuffle.nm.CourierShuffleHandler");

    private final String className;

    NodeShuffleService(String className) {
        this.className = className;
    }

    /** The auxiliary service class name ({@code yarn.nodemanager.aux-services.mapreduce_shuffle.class}). */
    public String className() {
        return className;
    }
}
