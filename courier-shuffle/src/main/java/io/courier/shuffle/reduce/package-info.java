/**
 * The reduce side of Courier: {@link io.courier.shuffle.reduce.CourierShuffleConsumer}, a
 * {@code ShuffleConsumerPlugin} that fetches every map output through the node's local Courier proxy and feeds
 * Hadoop's {@code MergeManagerImpl}, keeping Hadoop's failure semantics through {@code ShuffleSchedulerImpl} and
 * falling back to Hadoop's own HTTP {@code Fetcher} for nodes that have no reachable proxy. Public Hadoop APIs only.
 */
package io.courier.shuffle.reduce;
