package io.courier.coordinator.wire;

import com.esotericsoftware.kryo.Kryo;
import io.courier.coordinator.protocol.CoflowCompleted;
import io.courier.coordinator.protocol.CoflowRegistered;
import io.courier.coordinator.protocol.DecisionUpdate;
import io.courier.coordinator.protocol.EpochReport;
import io.courier.coordinator.protocol.FlowDecision;
import io.courier.coordinator.protocol.FlowReport;
import io.courier.coordinator.protocol.LookupProxy;
import io.courier.coordinator.protocol.NodeInfo;
import io.courier.coordinator.protocol.NodeRegistered;
import io.courier.coordinator.protocol.NodeReport;
import io.courier.coordinator.protocol.NotRegistered;
import io.courier.coordinator.protocol.ProxyLocation;
import io.courier.coordinator.protocol.RegisterNode;
import io.courier.coordinator.protocol.ReportAck;

/**
 * THE table of wire classes and their fixed Kryo ids (all >= 100; Kryo reserves the low ids for its own
 * types). Every JVM — coordinator and every proxy — must agree on it: ids are never reused or renumbered,
 * a new class gets the next free id, and {@code WireGoldenBytesTest} pins them. Nothing else is registered:
 * no {@code Object}, no open interface, no Java serialization.
 */
public final class WireTable {
    /** The lowest id of the table; ids below are Kryo's own registrations (int, String, ...), never wire messages. */
    public static final int MIN_ID = 100;
    public static final int NODE_INFO = 100;
    public static final int REGISTER_NODE = 101;
    public static final int NODE_REGISTERED = 102;
    public static final int NOT_REGISTERED = 103;
    public static final int FLOW_REPORT = 104;
    public static final int EPOCH_REPORT = 105;
    public static final int REPORT_ACK = 106;
    public static final int COFLOW_REGISTERED = 107;
    public static final int COFLOW_COMPLETED = 108;
    public static final int FLOW_DECISION = 109;
    public static final int DECISION_UPDATE = 110;
    public static final int LOOKUP_PROXY = 111;
    public static final int PROXY_LOCATION = 112;
    public static final int NODE_REPORT = 113;

    private WireTable() {
    }

    /** A Kryo that knows exactly the wire classes (registration required). One Kryo per thread at a time. */
    public static Kryo newKryo(ActorRefCodec refs) {
        Kryo k = new Kryo();
        k.setRegistrationRequired(true);
        k.setReferences(false);
        k.register(NodeInfo.class, new MessageSerializers.NodeInfoSerializer(), NODE_INFO);
        k.register(RegisterNode.class, new MessageSerializers.RegisterNodeSerializer(refs), REGISTER_NODE);
        k.register(NodeRegistered.class, new MessageSerializers.NodeRegisteredSerializer(), NODE_REGISTERED);
        k.register(NotRegistered.class, new MessageSerializers.NotRegisteredSerializer(), NOT_REGISTERED);
        k.register(FlowReport.class, new MessageSerializers.FlowReportSerializer(), FLOW_REPORT);
        k.register(EpochReport.class, new MessageSerializers.EpochReportSerializer(refs), EPOCH_REPORT);
        k.register(ReportAck.class, new MessageSerializers.ReportAckSerializer(), REPORT_ACK);
        k.register(CoflowRegistered.class, new MessageSerializers.CoflowRegisteredSerializer(), COFLOW_REGISTERED);
        k.register(CoflowCompleted.class, new MessageSerializers.CoflowCompletedSerializer(), COFLOW_COMPLETED);
        k.register(FlowDecision.class, new MessageSerializers.FlowDecisionSerializer(), FLOW_DECISION);
        k.register(DecisionUpdate.class, new MessageSerializers.DecisionUpdateSerializer(), DECISION_UPDATE);
        k.register(LookupProxy.class, new MessageSerializers.LookupProxySerializer(refs), LOOKUP_PROXY);
        k.register(ProxyLocation.class, new MessageSerializers.ProxyLocationSerializer(), PROXY_LOCATION);
        k.register(NodeReport.class, new MessageSerializers.NodeReportSerializer(refs), NODE_REPORT);
        return k;
    }
}
