import Dispatch
import Glibc
import Synchronization

/// The game's side of a remote session: writes the engine's commands, each with its engine-clock
/// frame, and the catalogue's files into the terminal as ``RemoteFraming`` frames, for the player's
/// `soundstation ssh` to mix.
///
/// The mixer only encodes and queues (``forward(_:frame:)``); one writer thread of the
/// link's own does every `write`, one per frame, to `/dev/tty` (the session's terminal, whatever the
/// game did with its standard output), so a slow link blocks only that thread, and the kernel's tty
/// write lock keeps a frame whole against the game's drawing from any thread. Files go out in pieces
/// under a byte rate (``assetBytesPerSecond``), after any waiting command, so a transfer never holds
/// up sound or takes more than its share of the stream.
final class RemoteLink: Sendable {
    /// Bytes of files sent per second at most (their base64 is a third more).
    static let assetBytesPerSecond = 768 * 1024
    /// Bytes of a file in one frame.
    static let pieceSize = 12 * 1024
    /// A sound made in memory up to this size goes out with the commands, in order, not at the
    /// files' byte rate: a game that plays it right after making it is heard at its time.
    static let inlineMemoryBytes = 512 * 1024
    /// Frames waiting beyond this are dropped (counted): the link is far slower than the game.
    static let maxQueued = 8192
    /// How often the clock is sent while nothing else is.
    static let clockInterval: Duration = .seconds(1)

    /// How long the writer waits for the announcement line on a new socket connection.
    static let announcementTimeout: Duration = .seconds(2)
    /// How often a socket link that lost its player looks for one again.
    static let reconnectInterval: Duration = .seconds(1)
    /// How often a socket link in a multiplexer looks for a player who attached since.
    static let followInterval: Duration = .seconds(2)

    /// A file to send: read from `path`, or (a sound made in memory) held in `bytes`.
    private typealias File = (hash: ContentHash, path: String, size: Int, bytes: MemoryFileBytes?)

    private struct Outbox: Sendable {
        /// Frames to write, with the sound id each plays (named first if it is new).
        var frames: [(bytes: [UInt8], sound: SoundID?)] = []
        var dropped = 0
        /// Files still to send on this connection: (hash, path, size, next offset).
        var files: [(hash: ContentHash, path: String, size: Int, offset: Int, bytes: MemoryFileBytes?)] = []
        /// The catalogue's frame and files, sent again to a player that connects later.
        var catalogue: (frame: [UInt8], files: [File])?
        /// The sounds of the catalogue sent, with the synthesised ones made at run time added.
        var sounds: [RemoteJSON.Value] = []
        var catalogueOffered = false
        /// What the connected player holds; `nil` while no player is connected (a socket link
        /// before its announcement, or after its player left).
        var announcement: RemoteAnnouncement?
        var open = true
        /// The files of sounds made in memory (sent with the commands when small enough).
        var memory: Set<ContentHash> = []
    }

    private let route: RemoteRoute
    /// The first connection's descriptor; the writer thread owns it (and any later one).
    private let firstFD: Int32
    private let outbox = Mutex(Outbox())
    private let wake = DispatchSemaphore(value: 0)
    private let exited = DispatchSemaphore(value: 0)
    /// The engine's clock, for the clock messages the writer sends.
    private let clock: @Sendable () -> Int64
    /// A sound id's catalogue name (takes the sound table's lock: the writer thread calls it).
    private let name: @Sendable (SoundID) -> String
    private let sampleRate: Int
    /// Written bytes so far (a bench reports them).
    let bytesWritten = Atomic<Int>(0)

    /// Opens the session's terminal (or connects to the player's socket) and starts the writer.
    /// - Throws: ``AudioEngineError/noPlaybackDevice(name:)`` naming `/dev/tty` when the process has
    ///   no terminal to write to, or the socket when it does not answer.
    init(
        route: RemoteRoute, sampleRate: Int, terminal: String = "/dev/tty",
        clock: @escaping @Sendable () -> Int64, name: @escaping @Sendable (SoundID) -> String
    ) throws(AudioEngineError) {
        let fd: Int32
        switch route {
        case .terminal:
            fd = open(terminal, O_WRONLY | O_NOCTTY | O_CLOEXEC)
            guard fd >= 0 else {
                throw .noPlaybackDevice(name: "remote (\(terminal): \(String(cString: strerror(errno))))")
            }
        case .socket(let path):
            fd = RemoteSocket.connect(path)
            guard fd >= 0 else {
                throw .noPlaybackDevice(name: "remote (\(path): \(String(cString: strerror(errno))))")
            }
        }
        self.route = route
        firstFD = fd
        self.clock = clock
        self.name = name
        self.sampleRate = sampleRate
        let thread = PosixThread { [self] in run() }
        thread.name = "SoundStation remote"
        thread.start()
    }

    /// Queues one command the mixer carried out at `frame`. Called inside the mixer's turn, so it
    /// only encodes and appends; the writer names a sound id before its first use.
    func forward(_ command: EngineCommand, frame: Int64) {
        let sound: SoundID? =
            switch command {
            case .play(_, let sound, _, _), .playMusic(let sound, _, _, _, _, _): sound
            default: nil
            }
        enqueue(.command(command, frame: frame), naming: sound)
    }

    /// Queues one message in order with the commands (a fed stream's packets, its opening and end).
    /// Called from any thread; it only appends.
    /// - Parameter message: The message.
    func post(_ message: RemoteMessage) { enqueue(message, naming: nil) }

    /// Appends `message`'s frame to the outbox and wakes the writer; drops it (counted) when the
    /// outbox is full, or beyond 1,024 frames while no player is connected.
    /// - Parameters:
    ///   - message: What to send.
    ///   - sound: The sound id it plays, which the writer names first if the player has not seen it.
    private func enqueue(_ message: RemoteMessage, naming sound: SoundID?) {
        guard let frame = RemoteFraming.frame(message.encoded()) else { return }
        outbox.withLock { box in
            guard box.open else { return }
            guard box.frames.count < Self.maxQueued, box.announcement != nil || box.frames.count < 1024 else {
                box.dropped += 1
                return
            }
            box.frames.append((frame, sound))
        }
        wake.signal()
    }

    /// Files still to send on this connection (a test waits for them before it closes the link).
    var filesToSend: Int { outbox.withLock { $0.files.count } }

    /// The engine's clock as a frame, as the clock messages carry it.
    var now: Int64 { clock() }

    /// Sends a sound made in memory (``AudioEngine/makeBuffer(_:name:loopPoints:)``, the C API's
    /// `ss_load_memory`, `ss_load_pcm` and `ss_load_file`) as a catalogue effect on a file named by its
    /// content: the catalogue goes out again with `{"name": name, "kind": "effect", "path":
    /// "<sha256>.<ext>"}` added, and the file, unless the player holds it: up to
    /// ``inlineMemoryBytes`` with the commands, in order (a play right after the load finds it there),
    /// a larger one at the files' byte rate ahead of the catalogue's files not yet sent.
    /// - Parameters:
    ///   - name: The sound's name.
    ///   - file: Its bytes (a WAV for PCM) or the file on disk they came from.
    func offerMemory(name: String, file: MemorySoundFile) {
        let queued = outbox.withLock { box -> Bool in
            let fileName = file.hash.hex + "." + file.ext
            let entry = RemoteJSON.Value.object(
                ManifestJSON.Object(members: [
                    ("name", .string(name)), ("kind", .string("effect")), ("path", .string(fileName)),
                ]))
            box.sounds = box.sounds.filter { RemoteJSON.string($0, "name") != name } + [entry]
            var files = box.catalogue?.files ?? []
            let listed: File = (file.hash, file.path ?? "", file.size, file.bytes)
            if !files.contains(where: { $0.hash == file.hash }) { files.append(listed) }
            let message = RemoteMessage.catalogue(
                manifest: RemoteJSON.manifest(box.sounds),
                files: files.map { RemoteFile(hash: $0.hash, size: $0.size) })
            guard let frame = RemoteFraming.frame(message.encoded()) else { return false }
            box.catalogue = (frame, files)
            box.memory.insert(file.hash)
            // Before the player's greeting, the writer sends it all on greeting (greet(_:)).
            guard let announcement = box.announcement else { return false }
            box.frames.append((frame, nil))
            let sending = box.files.contains { $0.hash == file.hash }
            guard !sending, let wanted = Self.needed([listed], by: announcement).first else { return true }
            if let pieces = Self.inlinePieces(wanted) {
                // In order with the commands: a play right after the load finds it on the player.
                box.frames += pieces.map { ($0, nil) }
            } else {
                // After the piece under way (a resumed file's offset must stay its own).
                box.files.insert(wanted, at: box.files.isEmpty ? 0 : 1)
            }
            return true
        }
        if queued { wake.signal() }
    }

    /// The frames of a memory sound's file from its offset on, when it is small enough to go with the
    /// commands (``inlineMemoryBytes``) and can be read; `nil` otherwise.
    private static func inlinePieces(
        _ file: (hash: ContentHash, path: String, size: Int, offset: Int, bytes: MemoryFileBytes?)
    ) -> [[UInt8]]? {
        guard file.size <= inlineMemoryBytes,
            let bytes = file.bytes?.bytes ?? FileSystem.read(file.path), bytes.count == file.size
        else { return nil }
        var frames: [[UInt8]] = []
        var offset = file.offset
        while offset < bytes.count {
            let end = min(bytes.count, offset + pieceSize)
            let piece = RemoteMessage.fileChunk(
                file.hash, size: bytes.count, offset: offset, data: Array(bytes[offset..<end]))
            guard let frame = RemoteFraming.frame(piece.encoded()) else { return nil }
            frames.append(frame)
            offset = end
        }
        return frames
    }

    /// Sends `catalogue` (once per link): its manifest with every path replaced by the file's hash,
    /// then the files the player's announcement does not list, smallest first.
    ///
    /// The files are hashed here, on the caller's thread (when the game makes its sound system), so
    /// the catalogue goes out before any command that plays from it: SHA-256 runs at several hundred
    /// megabytes a second, a few milliseconds for a typical terminal game's sounds.
    func offer(_ catalogue: Catalogue) {
        let first = outbox.withLock { box in
            defer { box.catalogueOffered = true }
            return !box.catalogueOffered
        }
        guard first, let (manifest, read) = Self.rewrite(root: catalogue.root, entries: catalogue.entries)
        else {
            return
        }
        outbox.withLock { box in
            // Sounds made in memory before the catalogue (a game that loads them first) stay listed.
            var files: [File] = read.map { ($0.hash, $0.path, $0.size, nil) }
            var sounds = RemoteJSON.sounds(manifest) ?? []
            for file in box.catalogue?.files ?? [] {
                if !files.contains(where: { $0.hash == file.hash }) { files.append(file) }
            }
            for sound in box.sounds {
                guard let name = RemoteJSON.string(sound, "name"),
                    !sounds.contains(where: { RemoteJSON.string($0, "name") == name })
                else { continue }
                sounds.append(sound)
            }
            let message = RemoteMessage.catalogue(
                manifest: RemoteJSON.manifest(sounds),
                files: files.map { RemoteFile(hash: $0.hash, size: $0.size) })
            guard let frame = RemoteFraming.frame(message.encoded()) else { return }
            box.catalogue = (frame, files)
            box.sounds = sounds
            // Before a player connects, the writer sends it on connecting.
            guard let announcement = box.announcement else { return }
            box.frames.append((frame, nil))
            box.files = Self.needed(files, by: announcement)
        }
        wake.signal()
    }

    /// Sends a synthesised sound made at run time (``SoundBank/synth(_:_:)``) as its parameters, not
    /// its samples: the catalogue goes out again with the sound added, and the player renders the same
    /// samples from them. It goes out ahead of any command that plays the sound.
    func offerSynth(name: String, sound: SynthSound) {
        let queued = outbox.withLock { box -> Bool in
            box.sounds = Self.adding(synth: sound, named: name, to: box.sounds)
            let files = box.catalogue?.files ?? []
            let message = RemoteMessage.catalogue(
                manifest: RemoteJSON.manifest(box.sounds),
                files: files.map { RemoteFile(hash: $0.hash, size: $0.size) })
            guard let frame = RemoteFraming.frame(message.encoded()) else { return false }
            box.catalogue = (frame, files)
            guard box.announcement != nil else { return false }
            box.frames.append((frame, nil))
            return true
        }
        if queued { wake.signal() }
    }

    /// `sounds` (a manifest's entries) with a synthesised effect called `name` in place of any entry of
    /// that name: `{"name": ..., "kind": "effect", "synth": {every parameter}}`.
    static func adding(synth sound: SynthSound, named name: String, to sounds: [RemoteJSON.Value])
        -> [RemoteJSON.Value]
    {
        guard let synth = try? ManifestJSON.parse(Array(sound.json.utf8)) else { return sounds }
        let entry = RemoteJSON.Value.object(
            ManifestJSON.Object(members: [
                ("name", .string(name)), ("kind", .string("effect")), ("synth", synth),
            ]))
        return sounds.filter { RemoteJSON.string($0, "name") != name } + [entry]
    }

    /// The files a player with `announcement` lacks, smallest first (effects are playable within
    /// moments, music follows); a file it holds in part resumes where it stopped.
    private static func needed(_ files: [File], by announcement: RemoteAnnouncement) -> [(
        hash: ContentHash, path: String, size: Int, offset: Int, bytes: MemoryFileBytes?
    )] {
        files.sorted(by: { $0.size < $1.size }).compactMap { file in
            guard !announcement.cached.contains(file.hash.shortHex) else { return nil }
            let have = announcement.partial[file.hash.shortHex] ?? 0
            return (file.hash, file.path, file.size, have < file.size ? have : 0, file.bytes)
        }
    }

    /// The manifest at `root` with each `path` (and each stem's and SoundFont's) replaced by `<sha256>.<ext>`, and the
    /// files it names; `nil` when it cannot be read.
    static func rewrite(root: String, entries: [SoundEntry]) -> (
        manifest: [UInt8], files: [(hash: ContentHash, path: String, size: Int)]
    )? {
        guard let bytes = FileSystem.read(root + "/" + Catalogue.manifestName),
            let sounds = RemoteJSON.sounds(bytes)
        else { return nil }
        var resolved: [String: String] = [:]
        for entry in entries {
            resolved[entry.path] = entry.resolvedPath
            for stem in entry.stems { resolved[stem.path] = stem.resolvedPath }
            // A MIDI song's SoundFont travels like its song, cached by hash on the player.
            if let font = entry.soundFont, let full = entry.resolvedSoundFont { resolved[font] = full }
        }
        var files: [(hash: ContentHash, path: String, size: Int)] = []
        var names: [String: String] = [:]
        func rename(_ path: String) -> String? {
            guard let full = resolved[path] else { return nil }
            if let name = names[path] { return name }
            guard let (hash, size) = ContentHash.ofFile(full) else { return nil }
            let last = PathText.lastComponent(path)
            let ext = last.contains(".") ? String(last.split(separator: ".").last!).lowercased() : ""
            let name = ext.isEmpty ? hash.hex : hash.hex + "." + ext
            names[path] = name
            if !files.contains(where: { $0.hash == hash }) { files.append((hash, full, size)) }
            return name
        }
        let renamed = sounds.map { RemoteJSON.renamingPaths($0, rename) }
        return (RemoteJSON.manifest(renamed), files)
    }

    /// Sends the last frames and a goodbye, and stops the writer (waiting at most `timeout`).
    func close(timeout: Duration = .seconds(2)) {
        let wasOpen = outbox.withLock { box in
            defer { box.open = false }
            if box.open, let bye = RemoteFraming.frame(RemoteMessage.bye.encoded()) {
                box.frames.append((bye, nil))
            }
            return box.open
        }
        guard wasOpen else { return }
        wake.signal()
        _ = exited.wait(timeout: .now() + .milliseconds(Int(timeout.inSeconds * 1000)))
    }

    /// Why the writer runs in the normal class (`nil`: real-time), once it has started.
    var notRealTime: String? { refusal.withLock { $0 } }
    private let refusal = Mutex<String?>("not started")

    /// The writer: (re)connects, then writes queued frames, pieces of files under the byte budget and
    /// a clock message when the stream is quiet, until the link closes.
    ///
    /// It asks for the real-time class, as the driver that hands it the commands does: a player
    /// places each command by its stamp and a jitter buffer of some 80 ms, and in the normal class,
    /// beside two busy loops on 2 cores, a write waited up to 60 ms for a core.
    private func run() {
        let refused = PosixThread.requestRealTimeForItself()
        refusal.withLock { $0 = refused }
        var fd = firstFD
        defer {
            if fd >= 0 { Glibc.close(fd) }
            exited.signal()
        }
        var budget = Double(Self.pieceSize)
        var lastBudget = ContinuousClock.now
        var lastSent = ContinuousClock.now
        var named: Set<Int32> = []
        var lastAttempt = ContinuousClock.now
        // In a multiplexer, a socket newer than this one is a player who attached since.
        var current: String? = if case .socket(let path) = route { path } else { nil }
        let follows = current != nil && Self.followsNewerPlayers()
        var lastScan = ContinuousClock.now
        if !greet(fd) {
            Glibc.close(fd)
            fd = -1
        }
        while true {
            if fd < 0 {
                // No player: frames are dropped (counted) until one connects again.
                let open = outbox.withLock { box in
                    box.dropped += box.frames.count
                    box.frames.removeAll(keepingCapacity: true)
                    return box.open
                }
                if !open { return }
                if ContinuousClock.now - lastAttempt >= Self.reconnectInterval {
                    lastAttempt = .now
                    if let next = reconnect() {
                        (fd, current) = (next.fd, next.path)
                        named.removeAll()
                        lastSent = .now
                    }
                }
                _ = wake.wait(timeout: .now() + .milliseconds(Int(Self.reconnectInterval.inSeconds * 1000)))
                continue
            }
            let (frames, open) = outbox.withLock { box in
                defer { box.frames.removeAll(keepingCapacity: true) }
                return (box.frames, box.open)
            }
            var failed = false
            for frame in frames where !failed {
                if let sound = frame.sound, named.insert(sound.rawValue).inserted,
                    let naming = RemoteFraming.frame(
                        RemoteMessage.soundName(sound, name: name(sound)).encoded())
                {
                    failed = !write(naming, to: fd)
                }
                if !failed { failed = !write(frame.bytes, to: fd) }
            }
            if !frames.isEmpty { lastSent = .now }
            if failed {
                lostPlayer(&fd)
                lastAttempt = .now
                continue
            }
            if !open { return }
            // One piece of a file when the budget allows.
            let now = ContinuousClock.now
            budget = min(
                Double(Self.pieceSize) * 2,
                budget + (now - lastBudget).inSeconds * Double(Self.assetBytesPerSecond))
            lastBudget = now
            var waitFor: Duration = Self.clockInterval
            if let piece = nextPiece(budget: budget) {
                if let piece {
                    failed = !write(piece.frame, to: fd)
                    budget -= Double(piece.count)
                    lastSent = .now
                }
                waitFor = .milliseconds(1)
                if budget < Double(Self.pieceSize) {
                    waitFor = .seconds((Double(Self.pieceSize) - budget) / Double(Self.assetBytesPerSecond))
                }
            } else if ContinuousClock.now - lastSent >= Self.clockInterval {
                failed = !write(RemoteFraming.frame(RemoteMessage.clock(frame: clock()).encoded())!, to: fd)
                lastSent = .now
            }
            if failed {
                lostPlayer(&fd)
                lastAttempt = .now
                continue
            }
            if follows, ContinuousClock.now - lastScan >= Self.followInterval {
                lastScan = .now
                if let (path, next) = RemoteSocket.connectNewer(than: current) {
                    if greet(next) {
                        // The player before lets go of the game (its ssh can end).
                        Glibc.close(fd)
                        (fd, current) = (next, path)
                        named.removeAll()
                        lastSent = .now
                        continue
                    }
                    Glibc.close(next)
                }
            }
            _ = wake.wait(timeout: .now() + .microseconds(Int(waitFor.inSeconds * 1e6)))
        }
    }

    /// Starts a session with the player on `fd`: reads a socket's announcement, then writes the
    /// hello and the catalogue and queues the files the player lacks. Returns whether it could.
    private func greet(_ fd: Int32) -> Bool {
        let announcement: RemoteAnnouncement
        switch route {
        case .terminal(let announced): announcement = announced
        case .socket:
            guard let read = RemoteSocket.readAnnouncement(fd, timeout: Self.announcementTimeout) else {
                return false
            }
            announcement = read
        }
        let hello = RemoteMessage.hello(
            sampleRate: sampleRate, frame: clock(), session: UInt64.random(in: 1...UInt64.max))
        guard write(RemoteFraming.frame(hello.encoded())!, to: fd) else { return false }
        let (catalogue, inline) = outbox.withLock { box in
            box.announcement = announcement
            let needed = box.catalogue.map { Self.needed($0.files, by: announcement) } ?? []
            // Sounds made in memory go first and whole, ahead of the commands queued meanwhile.
            var inline: [[UInt8]] = []
            box.files = needed.filter { file in
                guard box.memory.contains(file.hash), let pieces = Self.inlinePieces(file) else {
                    return true
                }
                inline += pieces
                return false
            }
            return (box.catalogue?.frame, inline)
        }
        if let catalogue, !write(catalogue, to: fd) { return false }
        for piece in inline where !write(piece, to: fd) { return false }
        return true
    }

    /// The player went away (a write failed): a terminal link is done; a socket link forgets what it
    /// was sending and looks for a player again (the one who attaches to a multiplexer next).
    private func lostPlayer(_ fd: inout Int32) {
        Glibc.close(fd)
        fd = -1
        outbox.withLock { box in
            box.announcement = nil
            box.files.removeAll()
        }
    }

    /// A new connection to the newest socket that answers, greeted; `nil` when none (or a terminal
    /// link, which has one player only).
    private func reconnect() -> (fd: Int32, path: String)? {
        guard case .socket(let first) = route else { return nil }
        // The socket named outright, else this session's, else in a multiplexer the newest one that
        // answers (the session of a player who attached since, perhaps).
        let named = ProcessEnvironment.variables[RemoteSocket.variable].flatMap { $0.isEmpty ? nil : $0 }
        let environment = ProcessEnvironment.variables
        let newest = environment["TMUX"] != nil || environment["STY"] != nil
        guard
            let path = RemoteSocket.answering(named: named, newest: newest)
                ?? (RemoteSocket.probe(first) ? first : nil)
        else { return nil }
        let fd = RemoteSocket.connect(path)
        guard fd >= 0 else { return nil }
        guard greet(fd) else {
            Glibc.close(fd)
            return nil
        }
        return (fd, path)
    }

    /// Whether this link moves to a player who connects later: in a multiplexer (`TMUX`, `STY`),
    /// whose players come and go, unless `SOUNDSTATION_SOCKET` names the socket.
    private static func followsNewerPlayers() -> Bool {
        let environment = ProcessEnvironment.variables
        return (environment["TMUX"] != nil || environment["STY"] != nil)
            && (environment[RemoteSocket.variable] ?? "").isEmpty
    }

    /// The next piece of the file being sent: `nil` when no file waits, `.some(nil)` when one waits
    /// for budget or could not be read (then it is skipped).
    private func nextPiece(budget: Double) -> (frame: [UInt8], count: Int)?? {
        guard let file = outbox.withLock({ $0.files.first }) else { return nil }
        let count = min(Self.pieceSize, file.size - file.offset)
        guard budget >= Double(count) else { return .some(nil) }
        var data = [UInt8](repeating: 0, count: count)
        let got: Int
        if let bytes = file.bytes {
            // A sound made in memory: its bytes are here.
            data = Array(bytes.bytes[file.offset..<(file.offset + count)])
            got = count
        } else {
            let readFD = open(file.path, O_RDONLY | O_CLOEXEC)
            got =
                readFD < 0
                ? -1
                : data.withUnsafeMutableBytes { pread(readFD, $0.baseAddress, count, off_t(file.offset)) }
            if readFD >= 0 { Glibc.close(readFD) }
        }
        outbox.withLock { box in
            guard !box.files.isEmpty else { return }
            if got != count || file.offset + count >= file.size {
                box.files.removeFirst()
            } else {
                box.files[0].offset += count
            }
        }
        guard got == count else { return .some(nil) }
        let message = RemoteMessage.fileChunk(file.hash, size: file.size, offset: file.offset, data: data)
        return RemoteFraming.frame(message.encoded()).map { ($0, count) }
    }

    /// One frame in one `write` (the rest, should a signal cut it short); whether it all went. A
    /// socket's peer that left gives `EPIPE`, never the signal.
    private func write(_ frame: [UInt8], to fd: Int32) -> Bool {
        let isSocket = if case .socket = route { true } else { false }
        let ok = frame.withUnsafeBytes { bytes in
            var done = 0
            while done < bytes.count {
                let count =
                    isSocket
                    ? send(fd, bytes.baseAddress! + done, bytes.count - done, Int32(MSG_NOSIGNAL))
                    : Glibc.write(fd, bytes.baseAddress! + done, bytes.count - done)
                if count < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                done += count
            }
            return true
        }
        if ok { bytesWritten.add(frame.count, ordering: .relaxed) }
        return ok
    }
}
