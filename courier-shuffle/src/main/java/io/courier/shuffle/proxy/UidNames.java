package io.courier.shuffle.proxy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * User names of uids, for the proxy's checks of who is on the other end of a task connection and who owns a map
 * output. Java has no uid-to-name lookup, but {@link Files#getOwner} names the owner of a path through the
 * system's user database (getpwuid: local, LDAP or SSSD users alike), so a uid is named through a path it owns:
 * {@code /proc/<pid>} of a connecting process, or the file itself. The path's uid must be the one asked about, so
 * a path that changed owner in between (a pid another user's process took over) is refused, never misnamed.
 * Names are cached per uid: the database is asked once per user for the proxy's lifetime. A uid without a name
 * comes back as its number, which is no job's user. Thread-safe; each owner (a relay, a segment source) has its
 * own.
 */
public final class UidNames {
    private final Map<Integer, String> names = new ConcurrentHashMap<>();

    /**
     * The user name of {@code uid}, which owns {@code ownedByUid} (not following a final symbolic link).
     *
     * @throws IOException naming the path when it is gone, unreadable or now owned by another uid
     */
    public String nameOf(int uid, Path ownedByUid) throws IOException {
        String known = names.get(uid);
        if (known != null) {
            return known;
        }
        int owner;
        String name;
        try {
            owner = (Integer) Files.getAttribute(ownedByUid, "unix:uid", LinkOption.NOFOLLOW_LINKS);
            name = Files.getOwner(ownedByUid, LinkOption.NOFOLLOW_LINKS).getName();
        } catch (IOException | UnsupportedOperationException e) {
            throw new IOException("cannot tell the user of uid " + uid + " from " + ownedByUid + ": " + e, e);
        }
        if (owner != uid) {
            throw new IOException(ownedByUid + " belongs to uid " + owner + " now, not to uid " + uid);
        }
        names.put(uid, name);
        return name;
    }
}
