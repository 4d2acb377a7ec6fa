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
import io.courier.coordinator.protocol.NodeReport;
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

    /**
     * {@link NodeReport}: node id, epoch, heartbeat, then per row a flags byte and only what the flags do not
     * imply — the node's own end of a flow is not repeated, an unknown size and an unmeasured rate take no bytes,
     * the rate is whole bytes/s as a varint — and at the end the reply reference only when present. A row of
     * one flow with a 10-byte peer and job id takes about 30 bytes instead of about 45 in {@link EpochReport},
     * and the report has no ~60-byte actor path.
     */
    static final class NodeReportSerializer extends Serializer<NodeReport> {
        static final int SRC_IS_NODE = 1;
        static final int DST_IS_NODE = 2;
        static final int FINISHED = 4;
        static final int SIZE_KNOWN = 8;
        static final int RATE_MEASURED = 16;
        private static final int ALL_FLAGS = 31;

        private final ActorRefCodec refs;

        NodeReportSerializer(ActorRefCodec refs) {
            this.refs = refs;
            setImmutable(true);
        }

        @Override
        public void write(Kryo kryo, Output out, NodeReport m) {
            String node = m.nodeId();
            Fields.writeString(out, node);
            out.writeVarLong(m.epoch(), true);
            out.writeVarLong(m.heartbeatMillis(), true);
            out.writeVarInt(m.flows().size(), true);
            for (FlowReport r : m.flows()) {
                boolean srcIsNode = r.srcNode().equals(node);
                boolean dstIsNode = r.dstNode().equals(node);
                int flags = (srcIsNode ? SRC_IS_NODE : 0) | (dstIsNode ? DST_IS_NODE : 0)
                        | (r.finished() ? FINISHED : 0) | (r.totalBytes() >= 0 ? SIZE_KNOWN : 0)
                        | (r.measuredRate() >= 0 ? RATE_MEASURED : 0);
                out.writeByte(flags);
                Fields.writeString(out, r.jobId());
                if (!srcIsNode) {
                    Fields.writeString(out, r.srcNode());
                }
                if (!dstIsNode) {
                    Fields.writeString(out, r.dstNode());
                }
                out.writeVarLong(r.bytesSent(), true);
                out.writeVarLong(r.bytesPending(), true);
                if (r.totalBytes() >= 0) {
                    out.writeVarLong(r.totalBytes(), true);
                }
                if (r.measuredRate() >= 0) {
                    out.writeVarLong(Math.round(r.measuredRate()), true);
                }
            }
            if (m.replyTo() == null) {
                out.writeBoolean(false);
            } else {
                out.writeBoolean(true);
                Fields.writeString(out, refs.toWire(m.replyTo()));
            }
        }

        @Override
        public NodeReport read(Kryo kryo, Input in, Class<? extends NodeReport> type) {
            String node = Fields.readString(in);
            long epoch = in.readVarLong(true);
            long heartbeat = in.readVarLong(true);
            // A row takes at least a flags byte, a job id (length + 1 byte) and two one-byte varints.
            int n = Fields.readCount(in, "flow report list", 5);
            List<FlowReport> flows = new ArrayList<FlowReport>(n);
            for (int i = 0; i < n; i++) {
                int flags = in.readByte() & 0xff;
                if ((flags & ~ALL_FLAGS) != 0) {
                    throw new WireFormatException("report row " + i + " of " + node + " has unknown flags 0x"
                            + Integer.toHexString(flags));
                }
                String job = Fields.readString(in);
                String src = (flags & SRC_IS_NODE) != 0 ? node : Fields.readString(in);
                String dst = (flags & DST_IS_NODE) != 0 ? node : Fields.readString(in);
                long sent = in.readVarLong(true);
                long pending = in.readVarLong(true);
                long total = (flags & SIZE_KNOWN) != 0 ? in.readVarLong(true) : FlowReport.UNKNOWN_SIZE;
                double rate = (flags & RATE_MEASURED) != 0 ? (double) in.readVarLong(true) : -1.0;
                // The constructor refuses negative values (a varint above Long.MAX_VALUE decodes negative).
                flows.add(new FlowReport(job, src, dst, sent, pending, total, rate, (flags & FINISHED) != 0));
            }
            ActorRef<ClientCommand> reply = in.readBoolean() ? refs.<ClientCommand>fromWire(Fields.readString(in)) : null;
            return new NodeReport(node, epoch, heartbeat, flows, reply);
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
