import CommandLineKit
import Glibc
import SoundStation

/// The player's end of the forwarded socket (``RemoteSocket``): a Unix socket on the player's machine
/// that ssh's `-R` connects the server's socket to. Each game that connects is served in turn: it is
/// sent the announcement line (what the cache holds), then its frames are read with a
/// ``FrameExtractor`` under the same caps as the terminal's; any other byte is dropped and counted.
/// The socket is made mode 0600 in a folder of mode 0700, so only the player's own user reaches it.
final class SocketListener: @unchecked Sendable {
    let path: String
    /// The folder made for the socket, removed at the end (nil for a path the user gave).
    private let folder: String?
    private let fd: Int32
    private let stopping = Locked(false)
    private let done = Locked(false)
    /// Game connections that sent at least one frame.
    let sessions = Locked(0)

    /// Listens at `path`, or in a new private folder under `$XDG_RUNTIME_DIR` (else `/tmp`).
    init(path given: String?) throws {
        var folder: String?
        let path: String
        if let given {
            path = given
            // A socket left by an earlier listen is replaced; anything else is not touched.
            var info = stat()
            if lstat(given, &info) == 0 {
                guard info.st_mode & S_IFMT == S_IFSOCK, info.st_uid == geteuid() else {
                    throw CLIError("--socket \(given): exists and is not a socket of yours")
                }
                unlink(given)
            }
        } else {
            let base =
                ProcessEnvironment.variables["XDG_RUNTIME_DIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
            var template = Array("\(base)/soundstation-player-XXXXXX".utf8CString)
            guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
                throw CLIError(
                    "cannot make a folder for the socket in \(base): \(String(cString: strerror(errno)))")
            }
            folder = String(cString: made)
            path = folder! + "/sound.sock"
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw CLIError("socket path \(path): too long for a Unix socket")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        let mask = umask(0o177)
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        umask(mask)
        guard fd >= 0, bound == 0, listen(fd, 8) == 0 else {
            let reason = String(cString: strerror(errno))
            if fd >= 0 { close(fd) }
            if let folder { rmdir(folder) }
            throw CLIError("cannot listen on \(path): \(reason)")
        }
        self.path = path
        self.folder = folder
        self.fd = fd
    }

    /// Serves games on a thread of its own until ``stop()``; `ended` is called after each game
    /// connection that sent frames closes.
    func start(_ side: PlayerSide, ended: @escaping @Sendable () -> Void = {}) {
        let thread = PosixThread { [self] in
            side.readsTheLink()
            serve(side, ended: ended)
            done.withLock { $0 = true }
        }
        thread.name = "soundstation socket"
        thread.start()
    }

    /// Stops serving (within 200 ms) and removes the socket.
    func stop() {
        stopping.withLock { $0 = true }
        while !done.withLock({ $0 }) { usleep(10_000) }
        close(fd)
        unlink(path)
        if let folder { rmdir(folder) }
    }

    private var isStopping: Bool { stopping.withLock { $0 } }

    private func serve(_ side: PlayerSide, ended: @Sendable () -> Void) {
        let start = ContinuousClock.now
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while !isStopping {
            var listening = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&listening, 1, 200) > 0 else { continue }
            let connection = accept(fd, nil, nil)
            guard connection >= 0 else { continue }
            _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
            defer { close(connection) }
            var line = Array((side.announcement().value + "\n").utf8)
            guard
                line.withUnsafeMutableBytes({
                    send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                })
                    == line.count
            else { continue }
            var extractor = FrameExtractor()
            var stray: [UInt8] = []
            var messages: [[UInt8]] = []
            while !isStopping {
                var reading = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
                guard poll(&reading, 1, 200) > 0 else { continue }
                let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
                if count < 0, errno == EINTR { continue }
                if count <= 0 { break }
                let now = (ContinuousClock.now - start).inSeconds
                stray.removeAll(keepingCapacity: true)
                messages.removeAll(keepingCapacity: true)
                buffer.withUnsafeBytes {
                    extractor.feed(
                        UnsafeRawBufferPointer(rebasing: $0[0..<count]), now: now, text: &stray,
                        messages: &messages)
                }
                if !stray.isEmpty { side.strayBytes.withLock { $0 += stray.count } }
                side.receive(messages)
            }
            stray.removeAll()
            extractor.flushHeld(into: &stray)
            let counts = extractor.counts
            side.strayBytes.withLock { $0 += stray.count }
            side.socketCounts.withLock {
                $0.accepted += counts.accepted
                $0.malformed += counts.malformed
                $0.oversized += counts.oversized
                $0.rateLimited += counts.rateLimited
            }
            if counts.accepted > 0 {
                sessions.withLock { $0 += 1 }
                ended()
            }
        }
    }
}
