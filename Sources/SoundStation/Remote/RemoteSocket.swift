import Glibc

/// The second route to the player, for servers whose sshd passes no `LC_*` variable and for games
/// inside `tmux` or `screen` on the server: a Unix socket that ssh forwards from the server to the
/// player's `soundstation ssh --socket` (or `soundstation listen`), with `ssh -R
/// /tmp/soundstation-%r-TOKEN.sock:LOCAL`.
///
/// The game finds it without being told: in an SSH session (`SSH_CONNECTION`, which a multiplexer
/// started from one keeps), among the sockets named `/tmp/soundstation-USER-*.sock` that belong to the
/// game's own user and answer a connection (sshd makes forwarded sockets mode 0600, and only the
/// user's own processes can make a socket owned by the user, so another user cannot plant one), the
/// one whose listener (`SO_PEERCRED`) is the sshd this game descends from, its own session's; else
/// (inside `tmux` or `screen`, whose server descends from an older session) the newest, which
/// belongs to the session that connected last: the player who attached last.
/// `SOUNDSTATION_SOCKET=PATH` names one outright. Sockets that no longer answer (sshd leaves them
/// behind when a session ends) are removed as they are found.
///
/// On the socket the player speaks first: one line, the announcement's value (what
/// ``RemoteAnnouncement`` carries in `LC_SOUNDSTATION`) and `\n`. Then the game writes the same
/// ``RemoteFraming`` frames it writes into a terminal; the player reads them with a
/// ``FrameExtractor`` and the same caps, and drops any other byte.
public enum RemoteSocket {
    /// The variable naming a socket outright.
    public static let variable = "SOUNDSTATION_SOCKET"
    /// The folder sockets are forwarded into on the server (the one folder every server has that
    /// every user may make a socket in).
    public static let folder = "/tmp"
    /// The longest announcement line the game reads from the socket.
    public static let maxAnnouncement = 16_384

    /// The server-side path `soundstation ssh --socket` asks ssh to forward: ssh puts the remote
    /// user's name in place of `%r`.
    /// - Parameter token: A random word that keeps two sessions' sockets apart.
    public static func forwardedPath(token: String) -> String {
        "\(folder)/soundstation-%r-\(token).sock"
    }

    /// The socket a game in this environment sends its sound to, if any.
    ///
    /// Only for a program in an SSH session (a game started at the server's own console keeps its
    /// speakers, and so does one in a multiplexer started there) unless `SOUNDSTATION_SOCKET` names
    /// one; outside a multiplexer only the session's own socket counts. Each candidate is tried with
    /// a connection (a local socket answers at once) that is closed again; the player ignores it.
    /// - Parameter environment: The program's variables.
    /// - Returns: The socket's path, or `nil` when none answers.
    public static func find(environment: [String: String]) -> String? {
        let named = environment[variable].flatMap { $0.isEmpty ? nil : $0 }
        guard named != nil || environment["SSH_CONNECTION"] != nil else { return nil }
        return answering(named: named, newest: environment["TMUX"] != nil || environment["STY"] != nil)
    }

    /// The socket `named` if it answers, else (with no name) the user's socket whose listener is an
    /// ancestor of this process (the sshd of this very session), else, when `newest` allows (in a
    /// multiplexer), the newest that answers.
    static func answering(named: String?, newest allowed: Bool) -> String? {
        if let named { return isOwnSocket(named) && probe(named) ? named : nil }
        let ancestors = ancestry()
        var newest: String?
        for path in candidates() {
            let fd = connect(path)
            guard fd >= 0 else {
                if errno == ECONNREFUSED, isOwnSocket(path) { unlink(path) }
                continue
            }
            let listener = peerProcess(fd)
            Glibc.close(fd)
            if let listener, ancestors.contains(listener) { return path }
            if allowed, newest == nil { newest = path }
        }
        return newest
    }

    /// A connection to a socket of the user's newer than `current` that answers (the newest first),
    /// with its path; stale ones on the way are removed. Only a listing of ``folder`` when there is
    /// none newer: a link in a multiplexer calls it every few seconds.
    static func connectNewer(than current: String?) -> (path: String, fd: Int32)? {
        for path in candidates() {
            if path == current { return nil }
            let fd = connect(path)
            if fd >= 0 { return (path, fd) }
            if errno == ECONNREFUSED, isOwnSocket(path) { unlink(path) }
        }
        return nil
    }

    /// The process that listens on the other end of a connected socket (`SO_PEERCRED`).
    static func peerProcess(_ fd: Int32) -> pid_t? {
        // `struct ucred` (pid, uid, gid), which Glibc's module leaves out without _GNU_SOURCE.
        var credentials: (pid_t, uid_t, gid_t) = (0, 0, 0)
        var length = socklen_t(MemoryLayout.size(ofValue: credentials))
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0, credentials.0 > 0 else {
            return nil
        }
        return credentials.0
    }

    /// This process's parent, its parent, and so on (from `/proc`): an sshd among them is the one
    /// that serves this session, and listens on the socket its player forwarded. Inside a multiplexer
    /// the chain ends at the multiplexer's server instead, and the newest socket is taken.
    static func ancestry() -> Set<pid_t> {
        var found: Set<pid_t> = []
        var pid = getppid()
        while pid > 1, found.insert(pid).inserted, found.count < 64 {
            guard let stat = FileSystem.read("/proc/\(pid)/stat"),
                let close = stat.lastIndex(of: UInt8(ascii: ")"))
            else { break }
            // After the command's closing parenthesis: " S PPID ...".
            let fields = stat[(close + 1)...].split(separator: UInt8(ascii: " "))
            guard fields.count > 1, let parent = pid_t(String(decoding: fields[1], as: UTF8.self)) else {
                break
            }
            pid = parent
        }
        return found
    }

    /// The user's sockets in ``folder``, newest first.
    static func candidates() -> [String] {
        guard let user = currentUser(),
            let names = try? FileSystem.contentsOfDirectory(folder)
        else { return [] }
        let prefix = "soundstation-\(user)-"
        var found: [(path: String, time: Double)] = []
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(".sock") {
            let path = folder + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFSOCK, info.st_uid == geteuid() else {
                continue
            }
            found.append((path, Double(info.st_ctim.tv_sec) + Double(info.st_ctim.tv_nsec) / 1e9))
        }
        return found.sorted { $0.time > $1.time }.map(\.path)
    }

    /// Whether `path` is a socket (not a link to one) owned by this process's user.
    static func isOwnSocket(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFSOCK && info.st_uid == geteuid()
    }

    /// Whether the socket answers; one that refuses (its sshd is gone) is removed when it is ours.
    static func probe(_ path: String) -> Bool {
        let fd = connect(path)
        if fd >= 0 {
            Glibc.close(fd)
            return true
        }
        if errno == ECONNREFUSED, isOwnSocket(path) { unlink(path) }
        return false
    }

    /// A connection to the socket at `path` (blocking, close-on-exec), or -1 with `errno` set. The
    /// connect itself never waits: a socket whose queue is full counts as not answering.
    static func connect(_ path: String) -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            errno = ENAMETOOLONG
            return -1
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        let fd = socket(
            AF_UNIX,
            Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { return -1 }
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else {
            let saved = errno
            Glibc.close(fd)
            errno = saved
            return -1
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return fd
    }

    /// Reads the player's announcement line from a fresh connection, waiting at most `timeout`.
    /// - Returns: The announcement (an empty one when the line is not one this version reads), or
    ///   `nil` when the connection closed or said nothing in time.
    static func readAnnouncement(_ fd: Int32, timeout: Duration) -> RemoteAnnouncement? {
        var line: [UInt8] = []
        let deadline = ContinuousClock.now + timeout
        var buffer = [UInt8](repeating: 0, count: 4096)
        while line.count < maxAnnouncement {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return nil }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(max(1, left.inSeconds * 1000)))
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { return nil }
            // One byte at a time past the line would eat frames; the player sends nothing after it
            // until the game speaks, so whatever is read is the line.
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return nil }
            line += buffer[0..<count]
            if let end = line.firstIndex(of: 0x0A) {
                let text = String(decoding: line[..<end], as: UTF8.self)
                return RemoteAnnouncement(parsing: text) ?? RemoteAnnouncement()
            }
        }
        return nil
    }

    /// The name of this process's user, from the password database.
    static func currentUser() -> String? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getpwuid_r(geteuid(), &entry, &buffer, buffer.count, &result) == 0, result != nil,
            let name = entry.pw_name
        else { return nil }
        let text = String(cString: name)
        // A name that could leave the folder or break the pattern is not used.
        guard !text.isEmpty, !text.contains("/") else { return nil }
        return text
    }
}
