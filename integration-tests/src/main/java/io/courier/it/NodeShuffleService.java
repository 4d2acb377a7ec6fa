package io.courier.it;

/**
 * Which class a mini cluster's NodeManagers run as the {@code mapreduce_shuffle} auxiliary service. Named by class
 * name so that the harness compiles and runs without the Courier handler on the class path.
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

    /** True when the class is on this JVM's class path (the NodeManagers run in this JVM). */
    public boolean isAvailable() {
        try {
            Class.forName(className, false, NodeShuffleService.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }
}
