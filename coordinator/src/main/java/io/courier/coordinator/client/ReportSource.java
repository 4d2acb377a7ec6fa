package io.courier.coordinator.client;

import io.courier.coordinator.protocol.FlowReport;
import java.util.List;

/**
 * The proxy's side of the per-epoch report: the current state of every unified flow it sends or receives
 * (a finished flow at least once with {@code finished} set). Called on the client's actor thread once per
 * epoch while registered; must be quick and thread-safe with respect to the proxy's own threads. The client
 * sends only the rows of jobs whose coflow it registered ({@link CoordinatorClient#registerCoflow}) and has not
 * completed; the others wait for their registration.
 */
public interface ReportSource {
    List<FlowReport> currentFlows();
}
