import Dispatch
import Glibc
import SoundStation

/// The player's side of a remote session: takes the messages ``FrameExtractor`` found in the SSH
/// stream, keeps the files in the ``AssetCache``, loads the catalogue it received, and plays every
/// command on a local engine a fixed ``delay`` after its time on the server's clock (a jitter buffer),
/// so sounds keep their spacing whatever the link does.
///
/// The server's clock is mapped onto the local one by the lag of the first message (arrival time
/// minus server time), kept for the session so every command moves by the same amount; the delay
/// absorbs the link's variation (``RemoteClock`` says when the mapping moves: never for one late
/// message). A command that arrives later than its time plus the delay plays at
/// once and is counted late. With an offline engine played by ``RemoteSpeaker``, each sound starts at
/// its exact frame.
/// Trust: only sounds of the catalogue received are played, from files in the cache named by the hash
/// of their bytes; every message is decoded by a decoder that refuses what no server writes; each
/// problem is counted in ``report``, never printed.
public final class RemotePlayer: Sendable {
    /// What the session did, for the player's summary.
    public struct Report: Sendable {
        /// Messages decoded and handled.
        public var messages = 0
        /// Messages whose bytes no server writes (dropped).
        public var undecodable = 0
        /// Commands carried out on the local engine.
        public var commands = 0
        /// Plays refused because their sound had not arrived (or is not in the catalogue).
        public var notArrived = 0
        /// Plays that waited for their sound's load (the commands for their voices meanwhile were
        /// kept for them).
        public var waitedForLoad = 0
        /// Loads of a sound a command waited for that ran in the real-time class (the loader asks
        /// for it while a command waits; where the machine refuses, 0).
        public var hurriedLoads = 0
        /// Commands that came later than their time plus the delay (played at once).
        public var late = 0
        /// Files received whole and stored.
        public var filesReceived = 0
        /// Files the catalogue needed that the cache already held.
        public var filesFromCache = 0
        /// Files, pieces or catalogues refused (bad hash, too long, out of order, unknown).
        public var refused = 0
        /// Bytes of files received.
        public var fileBytes = 0
        /// The smallest lag seen from the server's clock to arrival here (the local clock's origin
        /// included), in seconds.
        public var bestLag: Double?
        /// The largest lag seen beyond the anchor, in seconds: the link's jitter.
        public var maxLag: Double?
        /// Times the clock mapping was moved (drift, or messages later than the delay for a while).
        public var resyncs = 0
        /// Messages that came later than the delay beyond the mapping (each heard late if it was a
        /// command; the mapping moves only when they keep coming, ``RemoteClock/lateWindow``).
        public var lateMessages = 0
        /// The fixed delay added to every command, in seconds.
        public var delay: Double = 0
        /// Whether every sound of the catalogue is loaded and playable.
        public var ready = false
        /// How many of the catalogue's sounds are loaded.
        public var loaded = 0
        /// The latest local time a command was placed at (seconds of the engine clock).
        public var lastPlacedTime: Double = 0
        /// The first plays: server frame, local arrival and start time (seconds), for diagnosis.
        public var firstPlays: [(frame: Int64, arrival: Double, start: Double)] = []
        /// The plays placed after their time, since their message came later than the delay
        /// absorbs (the first 64): server frame and how late each was placed, in seconds. A check of
        /// what was heard judges such a play where it was placed, and tells the link's lateness from
        /// a play the player put in the wrong place.
        public var latePlays: [(frame: Int64, by: Double)] = []
        /// The last refusal's reason, for the summary.
        public var lastRefusal: String?
        /// Game sessions heard (each engine on the server says hello once per connection).
        public var sessions = 0
        /// What the session holds now, by the budget's measures.
        public var held = RemoteBudget.Usage()
        /// What was refused for being beyond the budget, by resource (sound loads, names, commands,
        /// messages).
        public var overBudget: [RemoteBudget.Resource: Int] = [:]
        /// What the game's fed streams did.
        public var streams = RemoteStreamCounts()
    }

    private struct State: Sendable {
        var report = Report()
        /// The session the stream belongs to (its hello's number).
        var session: UInt64?
        var serverRate = 48_000
        var catalogueSize = 0
        var manifest: [UInt8]?
        var files: [ContentHash: RemoteFile] = [:]
        var extensions: [ContentHash: String] = [:]
        /// Files hashed and found sound in this session (at the start or when stored).
        var verified: Set<ContentHash> = []
        var names: [Int32: String] = [:]
        /// The sound system each loaded sound is in.
        var systems: [String: SoundSystem] = [:]
        /// Sounds whose files are here, waiting for the loader, with the system they load into.
        var loading: [String: SoundSystem] = [:]
        /// The loader's order (a sound a command waits for moves to the front).
        var loadOrder: [String] = []
        /// Commands waiting for their sound's load: (command, server frame, arrival).
        var waiting: [String: [(EngineCommand, Int64, Double)]] = [:]
        /// Music commands held, in order, behind a track still loading (``holdMusic``).
        var musicHeld: [(EngineCommand, Int64, Double)] = []
        var voices: [UInt64: VoiceHandle] = [:]
        var voiceOrder: [UInt64] = []
        /// The server's voices whose play waits for its sound's load: each has a handle of the
        /// engine's already (``AudioEngine/awaitVoice()``), so commands for it are kept in order by
        /// the mixer until the play comes.
        var awaited: Set<UInt64> = []
        /// The mapping of the server's clock onto the engine's that commands are placed by.
        var clock = RemoteClock(delay: 0)
        /// Bytes of decoded samples charged per file and decoding options, and of device copies per
        /// file, options and loop points: entries that share a file are charged once.
        var samplesCharged: [String: Int] = [:]
        var copiesCharged: [String: Int] = [:]
        /// The engine frames of the commands the engine holds until then, in order: counted among
        /// the scheduled commands until the clock passes them.
        var scheduled: [Int64] = []
        /// Entries refused for the entry budget (kept so each is counted once; as many as the
        /// budget's entries at most).
        var entriesRefused: Set<String> = []
        /// Entries the loader refused for the decoded budget or could not load: not queued again when
        /// another file arrives, since within a session the budget only fills and a file fails to
        /// decode the same way each time (each refusal is counted once, and a catalogue of many
        /// files does not have the loader try every such entry again for each of them).
        var givenUp: Set<String> = []
        /// Whether the loader runs in the real-time class, moved there while a command waits for
        /// a load (``hurryLoader``).
        var loaderHurried = false

        /// Maps a server voice onto the engine's (the latest 4096).
        mutating func remember(_ remote: VoiceHandle, as local: VoiceHandle) {
            voices[remote.ticket] = local
            voiceOrder.append(remote.ticket)
            if voiceOrder.count > 4096 {
                let forgotten = voiceOrder.removeFirst()
                voices[forgotten] = nil
                awaited.remove(forgotten)
            }
        }

        /// Whether a held music command waits for a track still loading.
        var musicWaitsForLoad: Bool {
            musicHeld.contains { held in
                guard case .playMusic(let sound, _, _, _, _, _) = held.0, let name = names[sound.rawValue]
                else { return false }
                return systems[name] == nil && loading[name] != nil
            }
        }

        /// Counts one refusal of `resource`.
        mutating func overBudget(_ resource: RemoteBudget.Resource, _ count: Int = 1) {
            report.overBudget[resource, default: 0] += count
        }

        /// Whether one more command may be held: the pending and the scheduled ones share the
        /// budget's `limit`. When not, the refusal is counted.
        mutating func mayHoldCommand(within limit: Int) -> Bool {
            guard report.held.pendingCommands + report.held.scheduledCommands < limit else {
                overBudget(.pending)
                return false
            }
            return true
        }

        /// Lets go of the scheduled commands whose frame the clock has reached.
        mutating func release(upTo now: Int64) {
            let passed = scheduled.prefix { $0 <= now }.count
            guard passed > 0 else { return }
            scheduled.removeFirst(passed)
            report.held.scheduledCommands -= passed
        }

        /// Forgets the last session for a new one (another game, or the same game after the player
        /// came back): its clock, sound ids, voices and catalogue are its own. The report adds up.
        mutating func startOver() {
            let kept = (report, verified, scheduled)
            let delay = clock.delay
            self = State()
            (report, verified, scheduled) = kept
            clock = RemoteClock(delay: delay)
            report.ready = false
            report.loaded = 0
            let (peak, scheduled) = (report.held.peakDecodedBytes, report.held.scheduledCommands)
            report.held = RemoteBudget.Usage()
            // Commands the engine holds for the last session still count until they run.
            (report.held.peakDecodedBytes, report.held.scheduledCommands) = (peak, scheduled)
        }
    }

    /// The engine that plays.
    public let engine: AudioEngine
    /// The cache files go to.
    public let cache: AssetCache
    /// The jitter buffer: how long after its server time (plus the link's best lag) a command plays.
    public let delay: Duration
    /// What a session may make the player hold.
    public let budget: RemoteBudget
    private let state: Locked<State>
    private let queue = Locked<[(message: [UInt8], arrival: Double)]>([])
    /// Bytes of the messages in `queue`.
    private let queuedBytes = Locked(0)
    /// The decoded files every catalogue's sound system shares, so an entry on a file another entry
    /// (of any catalogue of the session) decoded holds no second copy.
    private let shares = DecodedShares()
    private let wake = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)
    private let running = Locked(true)
    private let arrivalClock: (@Sendable () -> Double?)?
    private let workerRefusal = Locked<String?>("not started")
    /// Why the thread that places the commands runs in the normal class (`nil`: it runs real-time).
    package var workerNotRealTime: String? { workerRefusal.withLock { $0 } }
    private let loadWake = DispatchSemaphore(value: 0)
    /// The loader's thread while it runs (so a waiting command can move it into the real-time
    /// class): cleared under its lock before the thread ends, and every move made under it, so no
    /// move reaches a thread that has gone.
    private let loaderThread = Locked<pthread_t?>(nil)
    /// The game's fed streams (``RemoteStreamPlayer``).
    private let streams: RemoteStreamPlayer

    /// Starts a player on `engine`.
    /// - Parameters:
    ///   - engine: A local engine (a device, usually).
    ///   - cache: Where files are kept.
    ///   - delay: The jitter buffer.
    ///   - verified: Cached files already hashed and found sound (``AssetCache/verify()``), which
    ///     need not be hashed again before they are loaded.
    ///   - budget: What a session may make the player hold.
    ///   - arrivalClock: The time a message read now arrived at, on the render clock's scale
    ///     (``RemoteSpeaker/arrivalTime``, which has no steps); `nil` (or a `nil` reading): the engine's
    ///     clock, as for an engine rendered by its caller.
    package init(
        engine: AudioEngine, cache: AssetCache, delay: Duration = .milliseconds(120),
        verified: [ContentHash] = [], budget: RemoteBudget = RemoteBudget(),
        arrivalClock: (@Sendable () -> Double?)? = nil
    ) {
        self.arrivalClock = arrivalClock
        self.engine = engine
        self.cache = cache
        self.delay = delay
        self.budget = budget
        var initial = State()
        initial.report.delay = delay.inSeconds
        initial.clock = RemoteClock(delay: delay.inSeconds)
        initial.verified = Set(verified)
        let state = Locked(initial)
        self.state = state
        streams = RemoteStreamPlayer(engine: engine, budget: budget) { resource in
            state.withLock { $0.overBudget(resource) }
        }
        // The worker places each command by its stamp against the jitter buffer: real-time where
        // the machine grants it, as the link's reader and the speaker are (the loader, which
        // decodes files for seconds, runs in the normal class but while a command waits for it).
        let thread = PosixThread { [self] in
            let refused = PosixThread.requestRealTimeForItself()
            workerRefusal.withLock { $0 = refused }
            work()
        }
        thread.name = "SoundStation remote player"
        thread.start()
        let loader = PosixThread { [self] in
            loaderThread.withLock { $0 = pthread_self() }
            loadLoop()
            loaderThread.withLock { $0 = nil }
        }
        loader.name = "SoundStation remote loader"
        loader.start()
    }

    /// What the session did so far.
    public var report: Report {
        let now = nowFrame
        var report = state.withLock { state in
            state.release(upTo: now)
            return state.report
        }
        report.streams = streams.counts
        return report
    }

    /// Hands over messages read from the stream; never waits on decoding, files or the engine.
    ///
    /// Beyond the budget's ``RemoteBudget/queuedBytes`` (the worker is behind) messages are dropped and
    /// counted.
    /// - Parameter messages: Frames' messages, in stream order.
    public func receive(_ messages: [[UInt8]]) {
        guard !messages.isEmpty else { return }
        let arrival = arrivalClock?() ?? engine.time.inSeconds
        var dropped = 0
        queue.withLock { queue in
            queuedBytes.withLock { bytes in
                for message in messages {
                    guard bytes + message.count <= budget.queuedBytes else {
                        dropped += 1
                        continue
                    }
                    bytes += message.count
                    queue.append((message, arrival))
                }
            }
        }
        if dropped > 0 { state.withLock { $0.overBudget(.queued, dropped) } }
        wake.signal()
    }

    /// Handles what was received and stops the worker.
    public func finish() {
        running.withLock { $0 = false }
        wake.signal()
        loadWake.signal()
        done.wait()
        done.wait()
    }

    /// Loads sounds in the order ``State/loadOrder`` says, then places the commands that waited.
    private func loadLoop() {
        defer { done.signal() }
        while running.withLock({ $0 }) {
            let next = state.withLock { state -> (String, SoundSystem)? in
                while !state.loadOrder.isEmpty {
                    let name = state.loadOrder.removeFirst()
                    guard let system = state.loading[name] else { continue }
                    // A command may have begun to wait before this thread ran at all.
                    if state.waiting[name] != nil || state.musicWaitsForLoad { hurryLoader(&state) }
                    return (name, system)
                }
                return nil
            }
            guard let (name, system) = next else {
                loadWake.wait()
                continue
            }
            let loaded = charge(name, of: system) && (try? system.bank.load(name)) != nil
            // Read here rather than trusted: the class this load ran in, for the report.
            let hurried = sched_getscheduler(0) & ~PosixThread.resetOnFork == SCHED_RR
            let waiting = state.withLock { state in
                // A new session started meanwhile: this load was the old one's.
                guard state.loading[name] === system else { return [(EngineCommand, Int64, Double)]() }
                state.loading[name] = nil
                if loaded {
                    state.systems[name] = system
                    state.report.loaded = state.systems.count
                    state.report.ready = state.systems.count == state.catalogueSize
                } else {
                    state.givenUp.insert(name)
                }
                state.report.held.entries = state.systems.count + state.loading.count
                let waiting = state.waiting.removeValue(forKey: name) ?? []
                state.report.held.pendingCommands -= waiting.count
                if hurried, !waiting.isEmpty { state.report.hurriedLoads += 1 }
                return waiting
            }
            for (command, frame, arrival) in waiting { play(command, frame: frame, arrival: arrival) }
            for (command, frame, arrival) in releasedMusic() {
                place(command, frame: frame, arrival: arrival)
            }
            state.withLock { state in
                guard state.loaderHurried, state.waiting.isEmpty, !state.musicWaitsForLoad else { return }
                // Under the lock, so a command that starts waiting after finds the loader back in
                // the normal class and moves it again.
                state.loaderHurried = false
                loaderThread.withLock { thread in _ = thread.map { PosixThread.setRealTime(false, of: $0) } }
            }
        }
    }

    private func work() {
        defer { done.signal() }
        while true {
            let batch = queue.withLock { queue in
                defer { queue.removeAll() }
                return queue
            }
            for item in batch {
                handle(item.message, arrival: item.arrival)
                queuedBytes.withLock { $0 -= item.message.count }
            }
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
        case .hello(let rate, let frame, let session):
            let abandoned = state.withLock { state -> [VoiceHandle] in
                var abandoned: [VoiceHandle] = []
                if state.session != nil, state.session != session {
                    abandoned = state.awaited.compactMap { state.voices[$0] }
                    state.startOver()
                    streams.reset()
                }
                state.session = session
                state.report.sessions += 1
                state.serverRate = rate
                return abandoned
            }
            for voice in abandoned { engine.forgetVoice(voice) }
            observe(frame: frame, arrival: arrival)
        case .clock(let frame): observe(frame: frame, arrival: arrival)
        case .command(let command, let frame):
            observe(frame: frame, arrival: arrival)
            play(command, frame: frame, arrival: arrival)
        case .soundName(let id, let name): keep(name, for: id)
        case .catalogue(let manifest, let files): receiveCatalogue(manifest, files: files)
        case .fileChunk(let hash, let size, let offset, let data):
            receivePiece(hash, size: size, offset: offset, data: data)
        case .bye: streams.endAll()
        case .streamOpen(let id, let channels): streams.open(id, channels: channels)
        case .streamPacket(let id, let sequence, let frame, let data):
            let lag = arrival - Double(frame) / Double(state.withLock { $0.serverRate })
            streams.receive(id, sequence: sequence, lag: lag, data: data)
        case .streamEnd(let id, let packets): streams.end(id, packets: packets)
        }
    }

    /// Updates the clock mapping (``RemoteClock``) with a message sent at server `frame` that arrived
    /// at `arrival`.
    private func observe(frame: Int64, arrival: Double) {
        state.withLock { state in
            let lag = arrival - Double(frame) / Double(state.serverRate)
            state.report.bestLag = min(state.report.bestLag ?? lag, lag)
            let seen = state.clock.observe(lag: lag, arrival: arrival, placing: state.report.commands > 0)
            if let beyond = seen.beyond { state.report.maxLag = max(state.report.maxLag ?? 0, beyond) }
            if seen.late { state.report.lateMessages += 1 }
            if seen.moved { state.report.resyncs += 1 }
        }
    }

    /// The engine clock's frame now.
    private var nowFrame: Int64 { Int64((engine.time.inSeconds * Double(engine.sampleRate)).rounded()) }

    /// The local engine frame for server `frame` (the server's frame moved by the clock mapping and
    /// the delay, rounded up to whole mixing quanta, so commands keep their spacing to the sample and
    /// fades and tweens step at the frames they step at on the server), and whether it has passed
    /// already.
    private func localFrame(ofServer frame: Int64) -> (Int64, late: Bool) {
        let (rate, offset) = state.withLock { ($0.serverRate, $0.clock.offset ?? 0) }
        let local = Double(engine.sampleRate)
        let limit = 1 << 62
        let shift = Self.wholeQuanta(
            Int64(max(-9e18, min(9e18, ((offset + delay.inSeconds) * local).rounded()))))
        let mapped =
            rate == engine.sampleRate
            ? frame : Int64(max(-9e18, min(9e18, (Double(frame) * local / Double(max(rate, 1))).rounded())))
        let (sum, overflow) = mapped.addingReportingOverflow(shift)
        let target = overflow ? (shift > 0 ? Int64(limit) : 0) : max(0, min(sum, Int64(limit)))
        return (target, target < nowFrame)
    }

    /// `shift` rounded up to a whole number of the mixer's quanta (``AudioEngine/quantum``): the
    /// latency grows by less than one quantum (5.3 ms at 48 kHz).
    static func wholeQuanta(_ shift: Int64) -> Int64 {
        let rest = shift % AudioEngine.quantum
        // Division truncates towards zero: a negative shift's rest is dropped, which rounds it up.
        return rest > 0 ? shift - rest + AudioEngine.quantum : shift - rest
    }

    /// A tween as the local engine carries it out: its start moved onto the local clock as its
    /// command's frame is.
    private func localTween(_ tween: TweenSpec) -> TweenSpec {
        guard let start = tween.start else { return tween }
        let rate = Double(state.withLock { $0.serverRate })
        let frame = Int64(max(0, min(9e18, (start.inSeconds * rate).rounded())))
        var local = tween
        local.start = .frames(localFrame(ofServer: frame).0, rate: engine.sampleRate)
        return local
    }

    private func refuse(_ reason: String) {
        state.withLock {
            $0.report.refused += 1
            $0.report.lastRefusal = reason
        }
    }

    private func receiveCatalogue(_ manifest: [UInt8], files: [RemoteFile]) {
        // Every path must be a hash the message lists, with a plain extension.
        guard let sounds = RemoteJSON.sounds(manifest) else {
            return refuse("a catalogue that is not a manifest")
        }
        let listed = Set(files.map(\.hash))
        var extensions: [ContentHash: String] = [:]
        let paths = sounds.flatMap(RemoteJSON.paths)
        for path in paths {
            guard let path, let (hash, ext) = AssetCache.parse(fileName: path),
                listed.contains(hash)
            else { return refuse("a catalogue path that is not a listed hash") }
            extensions[hash] = ext
        }
        var fromCache = 0
        state.withLock { state in
            state.manifest = manifest
            state.extensions = extensions
            state.files = Dictionary(files.map { ($0.hash, $0) }, uniquingKeysWith: { a, _ in a })
        }
        for (hash, ext) in extensions where isPresent(hash, ext: ext) { fromCache += 1 }
        state.withLock { $0.report.filesFromCache = fromCache }
        loadIfComplete()
    }

    private func receivePiece(_ hash: ContentHash, size: Int, offset: Int, data: [UInt8]) {
        let ext: String? = state.withLock { state in
            guard let file = state.files[hash], file.size == size else { return nil }
            return state.extensions[hash]
        }
        guard let ext else { return refuse("a piece of a file the catalogue does not list") }
        do {
            // Pieces go to a file in the cache folder, so a transfer cut off resumes next session.
            let whole = try cache.appendPiece(data, of: hash, at: offset, size: size)
            state.withLock { $0.report.fileBytes += data.count }
            guard whole else { return }
            try cache.completePieces(of: hash, ext: ext)
            state.withLock {
                $0.report.filesReceived += 1
                $0.verified.insert(hash)
            }
            loadIfComplete()
        } catch {
            refuse(error.description)
        }
    }

    /// Whether the cache holds a sound copy of a file: one verified this session, else hashed now.
    private func isPresent(_ hash: ContentHash, ext: String) -> Bool {
        if state.withLock({ $0.verified.contains(hash) }) {
            return access(cache.directory + "/" + (ext.isEmpty ? hash.hex : hash.hex + "." + ext), R_OK) == 0
        }
        guard cache.verifiedPath(of: hash, ext: ext) != nil else { return false }
        state.withLock { _ = $0.verified.insert(hash) }
        return true
    }

    /// Loads every sound of the catalogue whose files are all in the cache and that is not loaded yet,
    /// into a sound system of its own (the catalogue a bank is made with must name files that exist).
    private func loadIfComplete() {
        let (manifest, loaded) = state.withLock {
            ($0.manifest, Set($0.systems.keys).union($0.loading.keys).union($0.givenUp))
        }
        guard let manifest, let sounds = RemoteJSON.sounds(manifest) else { return }
        var ready: [RemoteJSON.Value] = []
        state.withLock { $0.catalogueSize = sounds.count }
        for sound in sounds {
            guard let name = RemoteJSON.string(sound, "name"), !loaded.contains(name) else { continue }
            let present = RemoteJSON.paths(sound).allSatisfy { path in
                guard let path, let (hash, ext) = AssetCache.parse(fileName: path) else { return false }
                return isPresent(hash, ext: ext)
            }
            if present { ready.append(sound) }
        }
        ready = state.withLock { state in
            let room = max(0, budget.entries - state.systems.count - state.loading.count)
            for sound in ready.dropFirst(room) {
                guard let name = RemoteJSON.string(sound, "name") else { continue }
                if state.entriesRefused.count < budget.entries, state.entriesRefused.insert(name).inserted {
                    state.overBudget(.entries)
                }
            }
            return Array(ready.prefix(room))
        }
        guard !ready.isEmpty else { return }
        do {
            let catalogue = try Catalogue(
                json: RemoteJSON.manifest(ready), root: cache.directory,
                manifestName: "the server's catalogue")
            // The decoded-sound cache inside the player's cache folder, within its cap.
            let system = SoundSystem(
                engine: engine, catalogue: catalogue, pcmCache: cache.pcmCache, shares: shares)
            // Effects before music, smallest first: what a game plays most is ready soonest.
            let order = catalogue.entries.sorted { a, b in
                (a.kind == .music ? 1 : 0, Self.fileSize(a.resolvedPath)) < (
                    b.kind == .music ? 1 : 0, Self.fileSize(b.resolvedPath)
                )
            }
            state.withLock { state in
                for entry in order {
                    state.loading[entry.name] = system
                    state.loadOrder.append(entry.name)
                }
                state.report.held.entries = state.systems.count + state.loading.count
            }
            loadWake.signal()
        } catch {
            refuse("\(error)")
        }
    }

    /// Whether a command for local `frame` may be handed to the engine, which holds it until then:
    /// those still ahead count against the budget's pending commands until the clock reaches them (a
    /// server may name a frame far ahead); beyond the budget it is dropped and counted.
    private func hold(until frame: Int64) -> Bool {
        let now = nowFrame
        return state.withLock { state in
            state.release(upTo: now)
            guard frame > now else { return true }
            guard state.mayHoldCommand(within: budget.pendingCommands) else { return false }
            // Commands come mostly in frame order: the place is found from the end.
            var index = state.scheduled.endIndex
            while index > 0, state.scheduled[index - 1] > frame { index -= 1 }
            state.scheduled.insert(frame, at: index)
            state.report.held.scheduledCommands += 1
            return true
        }
    }

    /// Keeps the name of a server sound id, within the budget's names (a name given again for an id
    /// replaces the one before).
    private func keep(_ name: String, for id: SoundID) {
        state.withLock { state in
            let before = state.names[id.rawValue]?.utf8.count
            let count = state.names.count + (before == nil ? 1 : 0)
            let bytes = state.report.held.nameBytes - (before ?? 0) + name.utf8.count
            guard count <= budget.names, bytes <= budget.nameBytes else {
                state.overBudget(.names)
                return
            }
            state.names[id.rawValue] = name
            state.report.held.names = count
            state.report.held.nameBytes = bytes
        }
    }

    /// Charges the decoded bytes `name` will hold against the budget, or refuses (counted) when they
    /// would go beyond it. A sound on a file (and options and loop points) already charged costs
    /// nothing more: the bank shares its samples. The samples are counted as 4 bytes each, and the
    /// device's copy as 4 more (at most what it takes); a streamed track as one second of them.
    /// - Returns: Whether the sound may load.
    private func charge(_ name: String, of system: SoundSystem) -> Bool {
        guard let entry = system.catalogue[name] else { return true }
        var samples: [String: Int] = [:]
        var copies: [String: Int] = [:]
        let options = entry.decodingOptions
        let tag = String(PCMCache.tag(options), radix: 16)
        if let synth = entry.synth {
            // Rendered here: its samples, and the device's copy of them at the player's rate or less.
            let bytes = SynthGenerator.frameBound(synth.parameters) * 4
            samples["synth " + name] = bytes
            copies["synth " + name] = bytes
        }
        for path in [entry.resolvedPath] + entry.stems.map(\.resolvedPath) {
            guard let info = try? AudioDecoder.info(ofFileAt: path, options: options) else { continue }
            let count = info.frameCount * info.channels
            let streamed =
                entry.kind == .music
                && (entry.stream || (entry.stems.isEmpty && count * 4 > SoundBank.streamingThreshold))
            let bytes = streamed ? info.sampleRate * info.channels * 4 : count * 4
            let loop = entry.loopRange(sampleRate: info.sampleRate, frameCount: info.frameCount)
            samples[path + " " + tag] = bytes
            copies[path + " " + tag + " " + (loop.map { "\($0)" } ?? "all")] = bytes
        }
        return state.withLock { state in
            let new =
                samples.filter { state.samplesCharged[$0.key] == nil }.values.reduce(0, +)
                + copies.filter { state.copiesCharged[$0.key] == nil }.values.reduce(0, +)
            guard state.report.held.decodedBytes + new <= budget.decodedBytes else {
                state.overBudget(.decoded)
                return false
            }
            state.samplesCharged.merge(samples) { old, _ in old }
            state.copiesCharged.merge(copies) { old, _ in old }
            state.report.held.decodedBytes += new
            state.report.held.peakDecodedBytes = max(
                state.report.held.peakDecodedBytes, state.report.held.decodedBytes)
            return true
        }
    }

    private static func fileSize(_ path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : .max
    }

    /// Whether a play of `sound` must wait for its load (then it is kept and its load moved first).
    /// Its voice gets the engine's handle at once, so commands for it that come meanwhile reach it.
    private func deferUntilLoaded(
        _ command: EngineCommand, voice: VoiceHandle, sound: SoundID, frame: Int64, arrival: Double
    ) -> Bool {
        state.withLock { state in
            guard let name = state.names[sound.rawValue], state.systems[name] == nil,
                state.loading[name] != nil
            else {
                return false
            }
            // Beyond the budget the play is dropped (counted): it would be late anyway.
            guard state.mayHoldCommand(within: budget.pendingCommands) else { return true }
            state.report.held.pendingCommands += 1
            state.report.waitedForLoad += 1
            state.waiting[name, default: []].append((command, frame, arrival))
            if let local = engine.awaitVoice() {
                state.remember(voice, as: local)
                state.awaited.insert(voice.ticket)
            }
            state.loadOrder.removeAll { $0 == name }
            state.loadOrder.insert(name, at: 0)
            hurryLoader(&state)
            return true
        }
    }

    /// Moves the loader into the real-time class while a command waits for a load: in the normal
    /// class, beside busy programs, it waited for a core longer than the delay, and the command it
    /// held came late (Docs/Testing.md, run 13). A waited-for load is a sound the game plays now,
    /// short as a rule; the loader goes back to the normal class when nothing waits. Called under
    /// the state's lock.
    private func hurryLoader(_ state: inout State) {
        guard !state.loaderHurried else { return }
        state.loaderHurried = loaderThread.withLock { thread in
            thread.map { PosixThread.setRealTime(true, of: $0) == nil } ?? false
        }
    }

    /// Whether a command for the music must wait (then it is kept, in order, in ``State/musicHeld``):
    /// a track to play that is still loading holds it and every music command after it, so a game
    /// that starts one track and switches to another at once ends on the second, with the intensity
    /// it set, whatever order the tracks load in.
    private func holdMusic(_ command: EngineCommand, frame: Int64, arrival: Double) -> Bool {
        state.withLock { state in
            var loading: String?
            if case .playMusic(let sound, _, _, _, _, _) = command, let name = state.names[sound.rawValue],
                state.systems[name] == nil, state.loading[name] != nil
            {
                loading = name
            }
            guard loading != nil || !state.musicHeld.isEmpty else { return false }
            guard state.mayHoldCommand(within: budget.pendingCommands) else { return true }
            state.report.held.pendingCommands += 1
            state.musicHeld.append((command, frame, arrival))
            if let loading {
                state.loadOrder.removeAll { $0 == loading }
                state.loadOrder.insert(loading, at: 0)
                hurryLoader(&state)
            }
            return true
        }
    }

    /// The held music commands that may go now: those before the first track still loading.
    private func releasedMusic() -> [(EngineCommand, Int64, Double)] {
        state.withLock { state in
            var released: [(EngineCommand, Int64, Double)] = []
            while let (command, frame, arrival) = state.musicHeld.first {
                if case .playMusic(let sound, _, _, _, _, _) = command,
                    let name = state.names[sound.rawValue],
                    state.systems[name] == nil, state.loading[name] != nil
                {
                    break
                }
                released.append((command, frame, arrival))
                state.musicHeld.removeFirst()
                state.report.held.pendingCommands -= 1
            }
            return released
        }
    }

    /// The local sound id for a server id, when its sound is loaded here.
    private func localSound(_ id: SoundID) -> (SoundSystem, SoundID, String)? {
        state.withLock { state in
            guard let name = state.names[id.rawValue], let system = state.systems[name],
                let local = try? system.bank.id(of: name)
            else { return nil }
            return (system, local, name)
        }
    }

    /// Each sound system that loaded a music track (each has its own music station).
    private func musicSystems() -> [SoundSystem] {
        state.withLock { state in
            var seen = Set<ObjectIdentifier>()
            return state.systems.values.filter { system in
                seen.insert(ObjectIdentifier(system)).inserted
                    && !system.catalogue.entries(ofKind: .music).isEmpty
            }
        }
    }

    private func voice(_ remote: VoiceHandle) -> VoiceHandle? { state.withLock { $0.voices[remote.ticket] } }

    private func remember(_ remote: VoiceHandle, as local: VoiceHandle) {
        state.withLock { $0.remember(remote, as: local) }
    }

    /// The engine's handle kept for a play that waited for its load (``State/awaited``), now that
    /// the play is placed.
    private func awaitedVoice(_ remote: VoiceHandle) -> VoiceHandle? {
        state.withLock { state in
            state.awaited.remove(remote.ticket) == nil ? nil : state.voices[remote.ticket]
        }
    }

    private func play(_ command: EngineCommand, frame: Int64, arrival: Double) {
        switch command {
        case .play(let voice, let sound, _, _):
            if deferUntilLoaded(command, voice: voice, sound: sound, frame: frame, arrival: arrival) {
                loadWake.signal()
                return
            }
        case .playMusic, .setIntensity, .setMusicSpeed, .pauseMusic, .resumeMusic, .stopMusic:
            if holdMusic(command, frame: frame, arrival: arrival) {
                loadWake.signal()
                return
            }
        case .stop, .stopAll, .pause, .resume, .pauseAll, .resumeAll, .setVoice, .setPosition,
            .setVoiceFilter, .seek, .setBusVolume, .setBusMuted, .setBusFilter, .setBusReverb, .setDucking,
            .setListener, .setSpatialLayout, .setHRTF:
            break
        }
        place(command, frame: frame, arrival: arrival)
    }

    /// Places a command whose sound (if any) is loaded at its server frame's local frame: its voice
    /// handles, sound id, frames and tween start turned into the local engine's, then submitted to
    /// that engine, whose mixer carries it out as it does a game's (a trigger and a stream's voice by
    /// the trigger path, the music's commands through the music station that holds the track).
    private func place(_ command: EngineCommand, frame: Int64, arrival: Double) {
        // A play that waited for its load has its voice's handle already.
        var awaited: VoiceHandle?
        if case .play(let voice, _, _, _) = command { awaited = awaitedVoice(voice) }
        var started = false
        defer { if let awaited, !started { engine.forgetVoice(awaited) } }
        do {
            try command.check(sampleRate: engine.sampleRate)
        } catch {
            return refuse("a command out of range: \(error.description)")
        }
        let at: Int64 =
            switch command {
            case .play(_, _, _, let scheduled?), .playMusic(_, _, _, let scheduled?, _, _),
                .stopMusic(_, let scheduled?):
                scheduled
            default: frame
            }
        let (mapped, late) = localFrame(ofServer: at)
        let local = max(mapped, nowFrame)
        let time = Duration.frames(local, rate: engine.sampleRate)
        state.withLock {
            $0.report.commands += 1
            if late { $0.report.late += 1 }
            $0.report.lastPlacedTime = max($0.report.lastPlacedTime, time.inSeconds)
            if case .play = command {
                if $0.report.firstPlays.count < 16 {
                    $0.report.firstPlays.append((at, arrival, time.inSeconds))
                }
                if late, $0.report.latePlays.count < 64 {
                    $0.report.latePlays.append((at, Double(local - mapped) / Double(engine.sampleRate)))
                }
            }
        }
        switch command {
        case .play(let voice, let sound, let options, _):
            // A fed stream's voice (RemoteStreamPlayer).
            if let started = streams.play(sound, options: options, at: time) {
                if let started { remember(voice, as: started) }
                return
            }
            guard let (system, local, name) = localSound(sound) else {
                state.withLock { $0.report.notArrived += 1 }
                return
            }
            if system.bank.isStreamed(name) {
                // A streamed track: the music station opens it here as it did on the server.
                try? system.music.play(name, at: time)
                return
            }
            if let handle = engine.trigger(
                local, options: options.clamped(), at: time, soundDefaults: false, ticket: awaited?.ticket)
            {
                started = true
                if awaited == nil { remember(voice, as: handle) }
            }
        case .stop(let remote, let fade):
            // A closed stream's voice plays what was received first: the mixer passes its stop over.
            if let voice = voice(remote) { submit(.stop(voice, fade: fade), at: local) }
        case .pause(let remote): if let voice = voice(remote) { submit(.pause(voice), at: local) }
        case .resume(let remote): if let voice = voice(remote) { submit(.resume(voice), at: local) }
        case .setVoice(let remote, let parameter, let value, let tween):
            guard let voice = voice(remote) else { return }
            submit(.setVoice(voice, parameter, value, tween: tween.map(localTween)), at: local)
        case .setPosition(let remote, let position, let glide):
            if let voice = voice(remote) { submit(.setPosition(voice, position, glide: glide), at: local) }
        case .setVoiceFilter(let remote, let filter, let glide):
            if let voice = voice(remote) { submit(.setVoiceFilter(voice, filter, glide: glide), at: local) }
        case .seek(let remote, let frame):
            if let voice = voice(remote) { submit(.seek(voice, frame: frame), at: local) }
        case .setBusVolume(let bus, let volume, let tween):
            submit(.setBusVolume(bus, volume, tween: tween.map(localTween)), at: local)
        case .stopAll, .pauseAll, .resumeAll, .setBusMuted, .setBusFilter, .setBusReverb, .setDucking,
            .setListener, .setSpatialLayout, .setHRTF:
            submit(command, at: local)
        case .playMusic(let sound, let transition, let from, _, let loop, let repeats):
            guard let (system, id, _) = localSound(sound) else {
                state.withLock { $0.report.notArrived += 1 }
                return
            }
            guard hold(until: local) else { return }
            let switched = EngineCommand.playMusic(
                sound: id, transition: transition, from: from, frame: local, loop: loop, repeats: repeats)
            if !system.music.submit(switched) {
                state.withLock { $0.report.notArrived += 1 }
            }
        case .stopMusic(let fade, _):
            submitMusic(.stopMusic(fade: fade, frame: local), at: local)
        case .setIntensity(let intensity, let tween):
            submitMusic(.setIntensity(intensity, tween: localTween(tween)), at: local)
        case .pauseMusic, .resumeMusic, .setMusicSpeed:
            submitMusic(command, at: local)
        }
    }

    /// Submits a command of this engine's handles to the engine for `frame`, within the budget.
    private func submit(_ command: EngineCommand, at frame: Int64) {
        guard hold(until: frame) else { return }
        engine.submit(command, atFrame: frame)
    }

    /// Submits a music command to every music station of the session for `frame`, within the budget.
    private func submitMusic(_ command: EngineCommand, at frame: Int64) {
        guard hold(until: frame) else { return }
        for system in musicSystems() { system.music.submit(command, atFrame: frame) }
    }
}
