/**
 * What the NodeManager-side {@code CourierShuffleHandler} and the reduce-side {@code CourierShuffleConsumer}
 * agree on without talking: the service metadata layout and the cluster's proxy-port rule. No Hadoop types,
 * so the task-side jar stays thin.
 */
package io.courier.shuffle.service;
