package io.courier.coordinator.wire;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import io.courier.coordinator.protocol.ClientCommand;
import io.courier.coordinator.protocol.CoflowCompleted;
import io.courier.coordinator.protocol.CoflowRegistered;
import io.courier.coordinator.protocol.DecisionUpdate;
import io.courier.coordinator.protocol.EpochReport;
import io.courier.coordinator.protocol.FlowDecision;
import io.courier.coordinator.protocol.FlowReport;
import io.courier.coordinator.protocol.LookupProxy;
import io.courier.coordinator.protocol.NodeInfo;
import io.courier.coordinator.protocol.NodeRegistered;
import io.courier.coordinator.protocol.NotRegistered;
import io.courier.coordinator.protocol.ProxyLocation;
import io.courier.coordinator.protocol.RegisterNode;
import io.courier.coordinator.protocol.ReportAck;
import java.util.ArrayList;
import java.util.List;
import org.apache.pekko.actor.typed.ActorRef;

/**
 * One explicit Kryo serializer per wire class: fields in a fixed order, no reflection, no class names, and
 * every value goes back through the message's validating constructor. Changing an encoding here changes the
 * golden bytes ({@code WireGoldenBytesTest}) on purpose: old and new proxies would not understand each other.
 */
final class MessageSerializers {
    private MessageSerializers() {
    }

    static final class NodeInfoSerializer extends Serializer<NodeInfo> {
        NodeInfoSerializer() {
            setImmutable(true);
        }

        @Override
        public void write(Kryo kryo, Output out, NodeInfo n) {
            Fields.writeString(out, n.nodeId());
            Fields.writeString(out, n.shuffleEndpoint());
            Fields.writeString(out, n.proxyEndpoint());
            out.writeVarLong(n.upBytesPerSecond(), true);
            out.writeVarLong(n.downBytesPerSecond(), true);
        }

        @Override
        public NodeInfo read(Kryo kryo, Input in, Class<? extends NodeInfo> type) {
            return new NodeInfo(Fields.readString(in), Fields.readString(in), Fields.readString(in),
                    in.readVarLong(true), in.readVarLong(true));
        }
    }

    static final class RegisterNodeSerializer extends Serializer<RegisterNode> {
        private final ActorRefCodec refs;

        RegisterNodeSerializer(ActorRefCodec refs) {
            this.refs = refs;
            setImmutable(true);
        }

        @Override
        public void write(Kryo kryo, Output out, RegisterNode m) {
            kryo.writeObject(out, m.node());
            Fields.writeString(out, refs.toWire(m.replyTo()));
        }

        @Override
        public RegisterNode read(Kryo kryo, Input in, Class<? extends RegisterNode> type) {
            NodeInfo node = kryo.readObject(in, NodeInfo.class);
            ActorRef<ClientCommand> reply = refs.fromWire(Fields.readString(in));
            return new RegisterNode(node, reply);
        }
    }

    static final class NodeRegisteredSerializer extends Serializer<NodeRegistered> {
        NodeRegisteredSerializer() {
            setImmutable(true);
        }

        @Override
        public void write(Kryo kryo, Output out, NodeRegistered m) {
            Fields.writeString(out, m.nodeId());
            Fields.writeString(out, m.coordinatorId());
            out.writeVarLong(m.epochMillis(), true);
        }

        @Override
        public NodeRegistered read(Kryo kryo, Input in, Class<? extends NodeRegistered> type) {
            return new NodeRegistered(Fields.readString(in), Fields.readString(in), in.readVarLong(true));
        }
    }

    static final class NotRegisteredSerializer extends Serializer<NotRegistered> {
        NotRegisteredSerializer() {
            setImmutable(true);
        }

        @Override
        public void write(Kryo kryo, Output out, NotRegistered m) {
            Fields.writeString(out, m.nodeId());
        }

        @Override
        public NotRegistered read(Kryo kryo, Input in, Class<? extends NotRegistered> type) {
            return new NotRegistered(Fields.readString(in));
        }
    }

    static final class FlowReportSerializer extends Serializer<FlowReport> {
        FlowReportSerializer() {
            setImmutable(true);
        }

        @Override
        public void write(Kryo kryo, Output out, FlowReport r) {
            Fields.writeString(out, r.jobId());
            Fields.writeString(out, r.srcNode());
            Fields.writeString(out, r.dstNode());
            out.writeVarLong(r.bytesSent(), true);
            out.writeVarLong(r.bytesPending(), true);
            out.writeVarLong(r.totalBytes(), false); // -1 = unknown: zig-zag keeps it one byte
            out.writeDouble(r.measuredRate());
            out.writeBoolean(r.finished());
        }

        @Override
        public FlowReport read(Kryo kryo, Input in, Class<? extends FlowReport> type) {
            return new FlowReport(Fields.readString(in), Fields.readString(in), Fields.readString(in),
                    in.readVarLong(true), in.readVarLong(true), in.readVarLong(false), in.readDouble(),
                    in.readBoolean());
        }
    }

    static final class EpochReportSerializer extends Serializer<EpochReport> {
        private final ActorRefCodec refs;

        EpochReportSerializer(ActorRefCodec refs) {
            this.refs = refs;
            setImmutable(true);
        }

        @Override
        public void write(Kryo kryo, Output out, EpochReport m) {
            Fields.writeString(out, m.nodeId());
            out.writeVarLong(m.epoch(), true);
            out.writeVarInt(m.flows().size(), true);
            for (FlowReport r : m.flows()) {
                kryo.writeObject(out, r);
            }
            Fields.writeString(out, refs.toWire(m.replyTo()));
        }

        @Override
        public EpochReport read(Kryo kryo, Input in, Class<? extends EpochReport> type) {
            String node = Fields.readString(in);
            long epoch = in.readVarLong(true);
            // A flow report takes at least 3 one-byte strings' lengths + 3 bytes + 2 varints + 1 + 8 + 1 bytes.
            int n = Fields.readCount(in, "flow report list", 18);
            List<FlowReport> flows = new ArrayList<FlowReport>(n);
            for (int i = 0; i < n; i++) {
                flows.add(kryo.readObject(in, FlowReport.class));
            }
            ActorRef<ClientCommand> reply = refs.fromWire(Fields.readString(in));
            return new EpochReport(node, epoch, flows, reply);
        }
    }

    static final class ReportAckSerializer extends Serializer<ReportAck> {
        ReportAckSerializer() {
            setImmutable(true);
        }

        @Override
        public void write(Kryo kryo, Output out, ReportAck m) {
            out.writeVarLong(m.epoch(), true);
            out.writeVarInt(m.unknownJobs().size(), true);
            for (String j : m.unknownJobs()) {
                Fields.writeString(out, j);
            }
        }

        @Override
        public ReportAck read(Kryo kryo, Input in, Class<? extends ReportAck> type) {
            long epoch = in.readVarLong(true);
            int n = Fields.readCount(in, "unknown job list", 2);
            List<String> jobs = new ArrayList<String>(n);
            for (int i = 0; i < n; i++) {
                jobs.add(Fields.readString(in));
            }
            return new ReportAck(epoch, jobs);
        }
    }

    static final class CoflowRegisteredSerializer extends Serializer<CoflowRegistered> {
        CoflowRegisteredSerializer() {
            setImmutable(true);
        }

        @Override
        public void write(Kryo kryo, Output out, CoflowRegistered m) {
            Fields.writeString(out, m.jobId());
            out.writeDouble(m.weight());
            Fields.writeString(out, m.priority());
            out.writeVarLong(m.arrivalMillis(), true);
        }

        @Override
        public CoflowRegistered read(Kryo kryo, Input in, Class<? extends CoflowRegistered> type) {
            return new CoflowRegistered(Fields.readString(in), in.readDouble(), readPossiblyEmpty(in),
                    in.readVarLong(true));
        }
    }

    static final class CoflowCompletedSerializer extends Serializer<CoflowCompleted> {
        CoflowCompletedSerializer() {
            setImmutable(true);
        }

        @Override
        public void write(Kryo kryo, Output out, CoflowCompleted m) {
            Fields.writeString(out, m.jobId());
        }

        @Override
        public CoflowCompleted read(Kryo kryo, Input in, Class<? extends CoflowCompleted> type) {
            return new CoflowCompleted(Fields.readString(in));
        }
    }

    static final class FlowDecisionSerializer extends Serializer<FlowDecision> {
        FlowDecisionSerializer() {
            setImmutable(true);
        }

        @Override
        public void write(Kryo kryo, Output out, FlowDecision d) {
            Fields.writeString(out, d.jobId());
            Fields.writeString(out, d.srcNode());
            Fields.writeString(out, d.dstNode());
            out.writeDouble(d.rate());
            out.writeVarInt(d.priority(), false);
            out.writeVarInt(d.coflowRank(), false);
        }

        @Override
        public FlowDecision read(Kryo kryo, Input in, Class<? extends FlowDecision> type) {
            return new FlowDecision(Fields.readString(in), Fields.readString(in), Fields.readString(in),
                    in.readDouble(), in.readVarInt(false), in.readVarInt(false));
        }
    }

    static final class DecisionUpdateSerializer extends Serializer<DecisionUpdate> {
        DecisionUpdateSerializer() {
            setImmutable(true);
        }

        @Override
        public void write(Kryo kryo, Output out, DecisionUpdate m) {
            out.writeVarLong(m.epoch(), true);
            Fields.writeString(out, m.scheduler());
            out.writeBoolean(m.orderBased());
            out.writeVarInt(m.flows().size(), true);
            for (FlowDecision d : m.flows()) {
                kryo.writeObject(out, d);
            }
        }

        @Override
        public DecisionUpdate read(Kryo kryo, Input in, Class<? extends DecisionUpdate> type) {
            long epoch = in.readVarLong(true);
            String scheduler = Fields.readString(in);
            boolean orderBased = in.readBoolean();
            int n = Fields.readCount(in, "decision list", 16);
            List<FlowDecision> flows = new ArrayList<FlowDecision>(n);
            for (int i = 0; i < n; i++) {
                flows.add(kryo.readObject(in, FlowDecision.class));
            }
            return new DecisionUpdate(epoch, scheduler, orderBased, flows);
        }
    }

    static final class LookupProxySerializer extends Serializer<LookupProxy> {
        private final ActorRefCodec refs;

        LookupProxySerializer(ActorRefCodec refs) {
            this.refs = refs;
            setImmutable(true);
        }

        @Override
        public void write(Kryo kryo, Output out, LookupProxy m) {
            Fields.writeString(out, m.shuffleEndpoint());
            Fields.writeString(out, refs.toWire(m.replyTo()));
        }

        @Override
        public LookupProxy read(Kryo kryo, Input in, Class<? extends LookupProxy> type) {
            String endpoint = Fields.readString(in);
            ActorRef<ClientCommand> reply = refs.fromWire(Fields.readString(in));
            return new LookupProxy(endpoint, reply);
        }
    }

    static final class ProxyLocationSerializer extends Serializer<ProxyLocation> {
        ProxyLocationSerializer() {
            setImmutable(true);
        }

        @Override
        public void write(Kryo kryo, Output out, ProxyLocation m) {
            Fields.writeString(out, m.shuffleEndpoint());
            Fields.writeString(out, m.proxyEndpoint());
        }

        @Override
        public ProxyLocation read(Kryo kryo, Input in, Class<? extends ProxyLocation> type) {
            return new ProxyLocation(Fields.readString(in), readPossiblyEmpty(in));
        }
    }

    /** A string that may be empty (the length check of {@link Fields#readString} allows 0). */
    private static String readPossiblyEmpty(Input in) {
        return Fields.readString(in);
    }
}
