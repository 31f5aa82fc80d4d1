import Foundation

/// The player's side of a remote session: takes the messages ``FrameExtractor`` found in the SSH
/// stream, keeps the files in the ``AssetCache``, loads the catalogue it received, and plays every
/// command on a local engine a fixed ``delay`` after its time on the server's clock (a jitter buffer),
/// so sounds keep their spacing whatever the link does.
///
/// The server's clock is mapped onto the local one by the smallest lag seen so far (arrival time
/// minus server time, over every message), so the delay absorbs the link's variation above its best
/// case. A command that arrives later than its time plus the delay plays at once and is counted late.
/// Trust: only sounds of the catalogue received are played, from files in the cache named by the hash
/// of their bytes; every message is decoded by a decoder that refuses what no server writes; each
/// problem is counted in ``report``, never printed.
public final class RemotePlayer: Sendable {
    /// What the session did, for the player's summary.
    public struct Report: Sendable, Equatable {
        /// Messages decoded and handled.
        public var messages = 0
        /// Messages whose bytes no server writes (dropped).
        public var undecodable = 0
        /// Commands carried out on the local engine.
        public var commands = 0
        /// Plays refused because their sound had not arrived (or is not in the catalogue).
        public var notArrived = 0
        /// Commands that came later than their time plus the delay (played at once).
        public var late = 0
        /// Commands this version does not play remotely.
        public var unsupported = 0
        /// Files received whole and stored.
        public var filesReceived = 0
        /// Files the catalogue needed that the cache already held.
        public var filesFromCache = 0
        /// Files, pieces or catalogues refused (bad hash, too long, out of order, unknown).
        public var refused = 0
        /// Bytes of files received.
        public var fileBytes = 0
        /// The smallest lag seen from the server's clock to arrival here, in seconds.
        public var lag: Double?
        /// The largest lag seen, in seconds: the link's delay plus its jitter.
        public var maxLag: Double?
        /// The fixed delay added to every command, in seconds.
        public var delay: Double = 0
        /// Whether the catalogue's sounds are loaded and playable.
        public var ready = false
        /// The last refusal's reason, for the summary.
        public var lastRefusal: String?
    }

    private struct State: Sendable {
        var report = Report()
        var serverRate = 48_000
        var manifest: [UInt8]?
        var files: [ContentHash: RemoteFile] = [:]
        var extensions: [ContentHash: String] = [:]
        var incoming: [ContentHash: [UInt8]] = [:]
        var names: [Int32: String] = [:]
        var system: SoundSystem?
        var voices: [UInt64: VoiceHandle] = [:]
        var voiceOrder: [UInt64] = []
        /// Local engine time minus server time, the smallest seen (seconds).
        var offset: Double?
    }

    /// The engine that plays.
    public let engine: AudioEngine
    /// The cache files go to.
    public let cache: AssetCache
    /// The jitter buffer: how long after its server time (plus the link's best lag) a command plays.
    public let delay: Duration
    private let state: Locked<State>
    private let queue = Locked<[(message: [UInt8], arrival: Double)]>([])
    private let wake = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)
    private let running = Locked(true)

    /// Starts a player on `engine`.
    /// - Parameters:
    ///   - engine: A local engine (a device, usually).
    ///   - cache: Where files are kept.
    ///   - delay: The jitter buffer.
    public init(engine: AudioEngine, cache: AssetCache, delay: Duration = .milliseconds(120)) {
        self.engine = engine
        self.cache = cache
        self.delay = delay
        var initial = State()
        initial.report.delay = delay.inSeconds
        state = Locked(initial)
        let thread = Thread { [self] in work() }
        thread.name = "SoundStation remote player"
        thread.start()
    }

    /// What the session did so far.
    public var report: Report { state.withLock { $0.report } }

    /// Hands over messages read from the stream; never waits on decoding, files or the engine.
    /// - Parameter messages: Frames' messages, in stream order.
    public func receive(_ messages: [[UInt8]]) {
        guard !messages.isEmpty else { return }
        let arrival = engine.time.inSeconds
        queue.withLock { $0 += messages.map { ($0, arrival) } }
        wake.signal()
    }

    /// Handles what was received and stops the worker.
    public func finish() {
        running.withLock { $0 = false }
        wake.signal()
        done.wait()
    }

    private func work() {
        defer { done.signal() }
        while true {
            let batch = queue.withLock { queue in
                defer { queue.removeAll() }
                return queue
            }
            for item in batch { handle(item.message, arrival: item.arrival) }
            if batch.isEmpty {
                if !running.withLock({ $0 }) { return }
                wake.wait()
            }
        }
    }

    private func handle(_ bytes: [UInt8], arrival: Double) {
        let message: RemoteMessage
        do {
            message = try RemoteMessage(decoding: bytes)
        } catch {
            state.withLock { $0.report.undecodable += 1 }
            return
        }
        state.withLock { $0.report.messages += 1 }
        switch message {
        case .hello(let rate, let frame, _):
            state.withLock { $0.serverRate = rate }
            observe(frame: frame, arrival: arrival)
        case .clock(let frame): observe(frame: frame, arrival: arrival)
        case .command(let command, let frame):
            observe(frame: frame, arrival: arrival)
            play(command, frame: frame)
        case .soundName(let id, let name): state.withLock { $0.names[id.rawValue] = name }
        case .catalogue(let manifest, let files): receiveCatalogue(manifest, files: files)
        case .fileChunk(let hash, let size, let offset, let data): receivePiece(hash, size: size, offset: offset, data: data)
        case .bye: break
        }
    }

    /// Updates the clock mapping with a message sent at server `frame` that arrived at `arrival`.
    private func observe(frame: Int64, arrival: Double) {
        state.withLock { state in
            let lag = arrival - Double(frame) / Double(state.serverRate)
            state.offset = min(state.offset ?? lag, lag)
            if let offset = state.offset {
                // Lags relative to the best one seen: the link's jitter.
                state.report.lag = 0
                state.report.maxLag = max(state.report.maxLag ?? 0, lag - offset)
            }
        }
    }

    /// The local engine time for server `frame`, and whether that time has passed already.
    private func localTime(ofServer frame: Int64) -> (Duration, late: Bool) {
        let (rate, offset) = state.withLock { ($0.serverRate, $0.offset ?? 0) }
        let time = Double(frame) / Double(rate) + offset + delay.inSeconds
        let now = engine.time.inSeconds
        return (.seconds(max(time, now)), time < now)
    }

    private func refuse(_ reason: String) {
        state.withLock {
            $0.report.refused += 1
            $0.report.lastRefusal = reason
        }
    }

    private func receiveCatalogue(_ manifest: [UInt8], files: [RemoteFile]) {
        // Every path must be a hash the message lists, with a plain extension.
        guard let json = try? JSONSerialization.jsonObject(with: Data(manifest)) as? [String: Any],
            let sounds = json["sounds"] as? [[String: Any]]
        else { return refuse("a catalogue that is not a manifest") }
        let listed = Set(files.map(\.hash))
        var extensions: [ContentHash: String] = [:]
        var paths: [Any?] = []
        for sound in sounds {
            paths.append(sound["path"])
            for stem in sound["stems"] as? [[String: Any]] ?? [] { paths.append(stem["path"]) }
        }
        for path in paths {
            guard let path = path as? String, let (hash, ext) = AssetCache.parse(fileName: path), listed.contains(hash)
            else { return refuse("a catalogue path that is not a listed hash") }
            extensions[hash] = ext
        }
        var fromCache = 0
        state.withLock { state in
            state.manifest = manifest
            state.extensions = extensions
            state.files = Dictionary(files.map { ($0.hash, $0) }, uniquingKeysWith: { a, _ in a })
        }
        for (hash, ext) in extensions where cache.verifiedPath(of: hash, ext: ext) != nil { fromCache += 1 }
        state.withLock { $0.report.filesFromCache = fromCache }
        loadIfComplete()
    }

    private func receivePiece(_ hash: ContentHash, size: Int, offset: Int, data: [UInt8]) {
        let result: (complete: [UInt8]?, ext: String)? = state.withLock { state in
            guard let file = state.files[hash], file.size == size, let ext = state.extensions[hash] else { return nil }
            guard size <= cache.maxFileBytes else { return nil }
            var buffer = state.incoming[hash] ?? []
            // Pieces come in order; a gap or a repeat means the stream was cut or tampered with.
            guard buffer.count == offset else { return nil }
            buffer += data
            state.report.fileBytes += data.count
            if buffer.count == size {
                state.incoming[hash] = nil
                return (buffer, ext)
            }
            state.incoming[hash] = buffer
            return (nil, ext)
        }
        guard let result else { return refuse("a file piece that is unknown, too long or out of order") }
        guard let complete = result.complete else { return }
        do {
            try cache.store(complete, hash: hash, ext: result.ext)
            state.withLock { $0.report.filesReceived += 1 }
            loadIfComplete()
        } catch {
            refuse(error.description)
        }
    }

    /// Loads the catalogue once every file it names is in the cache.
    private func loadIfComplete() {
        let (manifest, extensions, loaded) = state.withLock { ($0.manifest, $0.extensions, $0.system != nil) }
        guard !loaded, let manifest else { return }
        for (hash, ext) in extensions where cache.verifiedPath(of: hash, ext: ext) == nil { return }
        do {
            let catalogue = try Catalogue(json: manifest, root: cache.directory, manifestName: "the server's catalogue")
            let system = SoundSystem(engine: engine, catalogue: catalogue)
            for entry in catalogue.entries { _ = try? system.bank.load(entry.name) }
            state.withLock {
                $0.system = system
                $0.report.ready = true
            }
        } catch {
            refuse("\(error)")
        }
    }

    /// The local sound id for a server id, when its sound is loaded here.
    private func localSound(_ id: SoundID) -> (SoundSystem, SoundID, String)? {
        state.withLock { state in
            guard let system = state.system, let name = state.names[id.rawValue],
                let local = try? system.bank.id(of: name)
            else { return nil }
            return (system, local, name)
        }
    }

    private func voice(_ remote: VoiceHandle) -> VoiceHandle? { state.withLock { $0.voices[remote.ticket] } }

    private func remember(_ remote: VoiceHandle, as local: VoiceHandle) {
        state.withLock { state in
            state.voices[remote.ticket] = local
            state.voiceOrder.append(remote.ticket)
            if state.voiceOrder.count > 4096 {
                state.voices[state.voiceOrder.removeFirst()] = nil
            }
        }
    }

    private func play(_ command: EngineCommand, frame: Int64) {
        let at: Int64 =
            switch command {
            case .play(_, _, _, let scheduled?), .playMusic(_, _, _, let scheduled?), .stopMusic(_, let scheduled?): scheduled
            default: frame
            }
        let (time, late) = localTime(ofServer: at)
        state.withLock {
            $0.report.commands += 1
            if late { $0.report.late += 1 }
        }
        let engine = self.engine
        switch command {
        case .play(let voice, let sound, let options, _):
            guard let (system, local, name) = localSound(sound) else {
                state.withLock { $0.report.notArrived += 1 }
                return
            }
            if system.bank.isStreamed(name) {
                // A streamed track: the music station opens it here as it did on the server.
                try? system.music.play(name, at: time)
                return
            }
            if let handle = engine.trigger(local, options: AudioEngine.clamp(options), at: time, soundDefaults: false) {
                remember(voice, as: handle)
            }
        case .stop(let remote, let fade):
            engine.schedule(at: time) { [self] in if let local = voice(remote) { engine.stop(local, fade: fade) } }
        case .stopAll(let bus, let fade): engine.schedule(at: time) { engine.stopAll(on: bus, fade: fade) }
        case .pause(let remote): engine.schedule(at: time) { [self] in if let local = voice(remote) { engine.pause(local) } }
        case .resume(let remote): engine.schedule(at: time) { [self] in if let local = voice(remote) { engine.resume(local) } }
        case .pauseAll: engine.schedule(at: time) { engine.pauseAll() }
        case .resumeAll: engine.schedule(at: time) { engine.resumeAll() }
        case .setVoice(let remote, let parameter, let value, nil):
            engine.schedule(at: time) { [self] in
                guard let local = voice(remote) else { return }
                switch parameter {
                case .volume: engine.setVolume(value, for: local)
                case .pitch: engine.setPitch(value, for: local)
                case .pan: try? engine.setPan(value, for: local)
                }
            }
        case .setBusVolume(let bus, let volume, nil): engine.schedule(at: time) { engine.setVolume(volume, for: bus) }
        case .setBusMuted(let bus, let muted): engine.schedule(at: time) { engine.setMuted(muted, for: bus) }
        case .setBusFilter(let bus, let filter, let glide):
            engine.schedule(at: time) { try? engine.setFilter(filter, for: bus, glide: glide) }
        case .setBusReverb(let bus, let reverb): engine.schedule(at: time) { try? engine.setReverb(reverb, for: bus) }
        case .setListener(let position, let glide):
            engine.schedule(at: time) { try? engine.setListener(position, glide: glide) }
        case .setSpatialLayout(let layout): engine.schedule(at: time) { try? engine.setSpatialLayout(layout) }
        case .setVoiceFilter(let remote, let filter, let glide):
            engine.schedule(at: time) { [self] in
                if let local = voice(remote) { try? engine.setFilter(filter, for: local, glide: glide) }
            }
        case .seek(let remote, let frame):
            engine.schedule(at: time) { [self] in if let local = voice(remote) { _ = engine.seek(local, toFrame: frame) } }
        case .playMusic(let sound, let transition, let from, _):
            guard let (system, _, name) = localSound(sound) else {
                state.withLock { $0.report.notArrived += 1 }
                return
            }
            try? system.music.play(name, transition: transition, from: from, at: time)
        case .stopMusic(let fade, _):
            let system = state.withLock { $0.system }
            system?.music.stop(fade: fade, at: time)
        default:
            state.withLock { $0.report.unsupported += 1 }
        }
    }
}
