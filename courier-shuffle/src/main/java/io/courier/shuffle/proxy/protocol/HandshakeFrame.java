package io.courier.shuffle.proxy.protocol;

/**
 * First frame in each direction: names the sender and its {@link Role}. A proxy names itself by its endpoint
 * {@code host:port}; a task (a reducer's {@code LocalProxyClient}) by any identifier. The role travels as one
 * optional byte after the name, written only for {@link Role#TASK}, so a peer handshake is byte-identical to
 * the original version-1 handshake.
 */
public final class HandshakeFrame implements Frame {
    /** Who opened the connection. */
    public enum Role {
        /** Another proxy fetching for its node's reducers (FETCH frames). */
        PEER(0),
        /** A local task asking this proxy to relay its fetches (RELAY_FETCH frames). */
        TASK(1);

        private final byte code;

        Role(int code) {
            this.code = (byte) code;
        }

        public byte code() {
            return code;
        }

        /** The role for a wire code; an unknown code is malformed. */
        public static Role ofCode(byte code) {
            for (Role r : values()) {
                if (r.code == code) {
                    return r;
                }
            }
            throw new IllegalArgumentException("unknown handshake role " + code);
        }
    }

    private final String nodeId;
    private final Role role;

    public HandshakeFrame(String nodeId) {
        this(nodeId, Role.PEER);
    }

    public HandshakeFrame(String nodeId, Role role) {
        this.nodeId = Checks.identifier("node id", nodeId);
        if (role == null) {
            throw new IllegalArgumentException("handshake needs a role");
        }
        this.role = role;
    }

    public String nodeId() {
        return nodeId;
    }

    public Role role() {
        return role;
    }

    @Override
    public FrameType type() {
        return FrameType.HANDSHAKE;
    }

    @Override
    public int streamId() {
        return 0;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof HandshakeFrame && ((HandshakeFrame) o).nodeId.equals(nodeId)
                && ((HandshakeFrame) o).role == role;
    }

    @Override
    public int hashCode() {
        return nodeId.hashCode() * 31 + role.hashCode();
    }

    @Override
    public String toString() {
        return role == Role.PEER ? "HANDSHAKE(" + nodeId + ")" : "HANDSHAKE(" + nodeId + ", " + role + ")";
    }
}
