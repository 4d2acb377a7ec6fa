package io.courier.shuffle.proxy.relay;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * User names of the uids that connect to the relay's domain socket. Java has no uid-to-name lookup, but the
 * owner of {@code /proc/<pid>} is the process's uid and {@link Files#getOwner} names it through the system's
 * user database (getpwuid: local, LDAP or SSSD users alike). The directory's uid must be the connecting one, so
 * a pid that another user's process took over since the task connected is refused, never misnamed. Names are
 * cached per uid, so the database is asked once per user for the proxy's lifetime (the first connection of a
 * user waits for it on an event loop). A uid without a name comes back as its number, which is no job's user.
 * Thread-safe; owned by one {@link RelayService}.
 */
final class UserNames {
    private final Path proc;
    private final Map<Integer, String> names = new ConcurrentHashMap<>();

    /** @param proc the proc file system ({@code /proc}) */
    UserNames(Path proc) {
        this.proc = proc;
    }

    /**
     * The user name of {@code uid}, which process {@code pid} connected as.
     *
     * @throws IOException naming the process when it is gone or now runs as another uid
     */
    String nameOf(int pid, int uid) throws IOException {
        String known = names.get(uid);
        if (known != null) {
            return known;
        }
        Path dir = proc.resolve(Integer.toString(pid));
        int owner;
        String name;
        try {
            owner = (Integer) Files.getAttribute(dir, "unix:uid");
            name = Files.getOwner(dir).getName();
        } catch (IOException | UnsupportedOperationException e) {
            throw new IOException("cannot tell the user of process " + pid + " (uid " + uid + ") from " + dir + ": "
                    + e, e);
        }
        if (owner != uid) {
            throw new IOException("process " + pid + " runs as uid " + owner + " now, not as uid " + uid
                    + " that connected");
        }
        names.put(uid, name);
        return name;
    }
}
