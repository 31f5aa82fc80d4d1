import CSoundStation
@_spi(Bindings) import SoundStation
import Synchronization

/// What `ss_engine *` points at: an engine, its catalogue and stations, the table of sound ids and the
/// queue of events for `ss_poll_event`.
///
/// The handle is `Unmanaged` and never freed: `ss_close` lets go of everything it holds (the device, the
/// sounds, the stations) and leaves this small object behind, so a call with a closed handle returns
/// `SS_ERR_CLOSED` instead of touching freed memory.
final class CEngine: Sendable {
    /// An open engine's parts; `nil` once closed.
    struct Live: Sendable {
        /// The engine, catalogue, bank and stations.
        let system: SoundSystem
        /// Every preload's sounds, held until `ss_close`.
        var held: [PreloadedSounds] = []
        /// The names ``held`` holds.
        var heldNames: Set<String> = []
        /// The subscription that fills ``events``.
        var subscription: EventSubscription?
        /// The subscription that turns the engine's notices into `SS_EVENT_NOTICE`.
        var notices: EventSubscription?
    }

    private let live: Locked<Live?>
    /// Sound ids in load order.
    let table = Locked(SoundTable())
    /// Events waiting for `ss_poll_event`: offline, every event is kept until polled (a render makes
    /// them all at once); on a device the newest 4096, with a count of the dropped.
    let events: EventQueue
    private let closed = Atomic<Bool>(false)
    /// The C handle (`ss_engine *`), whose `ss_play` triggers through the engine's ring without Swift.
    /// `nonisolated(unsafe)`: an immutable pointer to a C struct whose fields are atomics or set once.
    nonisolated(unsafe) let cHandle: OpaquePointer
    /// Keeps the ring `cHandle` points into alive until `ss_close` has waited out every `ss_play`.
    private let ringLifetime: Locked<(any AnyObject & Sendable)?>

    /// Opens the output and reads the catalogue.
    /// - Parameters:
    ///   - output: What `ss_open`'s output string asked for.
    ///   - assets: The folder of `catalogue.json`, or `nil` for an engine without a catalogue.
    /// - Throws: ``CError`` naming the output or the catalogue's problem.
    init(output: OutputSpec, assets: String?) throws(CError) {
        let catalogue: Catalogue
        do throws(CatalogueError) {
            if let assets {
                catalogue = try Catalogue(assetsRoot: assets)
            } else {
                catalogue = try Catalogue(json: Array(#"{"sounds": []}"#.utf8), root: "/")
            }
        } catch {
            throw CError(error)
        }
        let engine: AudioEngine
        let fallback = Locked<[String]>([])
        do throws(AudioEngineError) {
            switch output {
            case .exactly(let output): engine = try AudioEngine(output: output)
            case .deviceOrSilent(let latency):
                engine = try AudioEngine.openWithFallback(.device(latency: latency)) { line in
                    fallback.withLock { $0.append(line) }
                }
            }
        } catch {
            throw CError(error)
        }
        guard let cHandle = ss_internal_engine_create(engine.triggerPort.rawCore, Double(engine.sampleRate))
        else {
            throw .invalid("out of memory for the engine's handle")
        }
        self.cHandle = cHandle
        ss_internal_engine_set_output(cHandle, engine.outputName)
        ringLifetime = Locked(engine.triggerLifetime)
        if case .offline = engine.output {
            events = EventQueue(capacity: nil)
        } else {
            events = EventQueue(capacity: 4096)
        }
        live = Locked(Live(system: SoundSystem(engine: engine, catalogue: catalogue)))
        // The fallback's reason first, then what the libraries said while the device opened.
        for line in fallback.withLock({ $0 }) { notice(line) }
        let subscription = engine.onEvent { [self] event in receive(event) }
        let notices = engine.onNotice { [self] line in notice(line) }
        live.withLock {
            $0?.subscription = subscription
            $0?.notices = notices
        }
    }

    /// Whether `ss_close` has been called: one atomic load, for calls that must not take a lock.
    var isClosed: Bool { closed.load(ordering: .acquiring) }

    /// Queues a notice for `ss_poll_event`.
    /// - Parameter line: One line for the game to show or log.
    func notice(_ line: String) {
        let time = live.withLock { $0?.system.engine.time.inSeconds } ?? 0
        events.push(.init(type: SS_EVENT_NOTICE, soundID: -1, name: line, time: time))
    }

    /// The open engine's sound system.
    /// - Throws: ``CError/closed`` after `ss_close`.
    var system: SoundSystem {
        get throws(CError) {
            guard let system = live.withLock({ $0?.system }) else { throw .closed }
            return system
        }
    }

    /// Keeps a preload's sounds until the engine closes.
    /// - Parameter sounds: What the preload loaded.
    func hold(_ sounds: PreloadedSounds) {
        let keep = live.withLock { live -> Bool in
            guard live != nil else { return false }
            // A preload of sounds already held adds nothing: let its hold go at once, so that a
            // game preloading the same scene again and again does not grow.
            if sounds.names.allSatisfy({ live?.heldNames.contains($0) == true }) { return false }
            live?.held.append(sounds)
            live?.heldNames.formUnion(sounds.names)
            return true
        }
        if !keep { sounds.unload() }
    }

    /// Lets go of everything, once: stops the sound, unloads it, closes the output.
    func close() {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        // After this no ss_play touches the ring or the id table; only a tombstone stays.
        ss_internal_engine_close(cHandle)
        ringLifetime.withLock { $0 = nil }
        table.withLock { $0 = SoundTable() }
        events.clear()
        guard
            let live = live.withLock({ live -> Live? in
                defer { live = nil }
                return live
            })
        else { return }
        live.subscription?.cancel()
        live.notices?.cancel()
        live.system.music.stop()
        live.system.engine.shutdown()
        for sounds in live.held { sounds.unload() }
    }

    /// Gives `name` (loaded as `sound` in the engine) a C id, and lets `ss_play` reach it (or, for
    /// streamed music, tell the caller to use `ss_music`).
    /// - Parameters:
    ///   - music: Streamed music, which `ss_play` refuses.
    ///   - loops: Whether `SS_LOOPS_DEFAULT` loops it (its catalogue entry's `loop`).
    /// - Returns: The C id.
    /// - Throws: ``CError`` when the engine has given every id it can.
    func publish(_ entry: SoundTable.Sound, as sound: SoundID, music: Bool = false, loops: Bool = false)
        throws(CError) -> Int32
    {
        let id = table.withLock { $0.add(entry) }
        // The C side's marks: -2 for streamed music, bit 30 for a sound that loops by default.
        let mapped = music ? Int32(-2) : sound.rawValue | (loops ? Int32(1 << 30) : 0)
        guard ss_internal_engine_map(cHandle, id, mapped) != 0 else {
            throw .invalid("this engine has given \(id) sound ids, the most it can: open another engine")
        }
        return id
    }

    /// The loaded sound with `id`, with the system to play it in.
    /// - Parameter id: An id from `ss_sound_id` or `ss_load_file`.
    /// - Returns: The system and the sound.
    /// - Throws: ``CError`` for a closed engine or an id no sound has.
    func sound(_ id: Int32) throws(CError) -> (SoundSystem, SoundTable.Sound) {
        let system = try self.system
        guard let sound = table.withLock({ $0.sound(id) }) else {
            let count = table.withLock { $0.sounds.count }
            throw .unknown(
                "no sound has id \(id): this engine has \(count) sound(s), ids 0 to \(count - 1); "
                    + "get ids from ss_sound_id or ss_load_file")
        }
        return (system, sound)
    }

    /// Queues an engine event for `ss_poll_event`, with the id of its sound and its voice.
    private func receive(_ event: SoundEvent) {
        let record: EventQueue.Record
        switch event {
        case .started(let voice, let sound, let time):
            record = self.record(SS_EVENT_STARTED, sound, voice, time)
        case .finished(let voice, let sound, let reason, let time):
            record = self.record(SS_EVENT_FINISHED, sound, voice, time, reason: Self.code(of: reason))
        case .refused(let voice, let sound, let time):
            record = self.record(SS_EVENT_REFUSED, sound, voice, time)
        case .coalesced(let voice, let sound, _, let time):
            record = self.record(SS_EVENT_COALESCED, sound, voice, time)
        case .deviceLost(let reason, let time):
            record = .init(
                type: SS_EVENT_DEVICE_LOST, soundID: -1, name: reason, time: time.inSeconds)
        case .deviceRestored(let device, let time):
            record = .init(
                type: SS_EVENT_DEVICE_RESTORED, soundID: -1, name: device, time: time.inSeconds)
        case .reloaded, .reloadFailed, .catalogueReloaded:
            // The C interface does not watch assets (SoundBank.watch is for Swift games and tools).
            return
        case .hrtf:
            // The C interface has no HRTF call (setHRTF is for Swift games).
            return
        }
        events.push(record)
    }

    /// A sound's event: its id and name, a stem's being its track's (`NAME stem N`), so that no sound
    /// event carries the -1 of device events.
    private func record(
        _ type: ss_event_type, _ sound: String, _ voice: VoiceHandle, _ time: Duration, reason: Int32 = 0
    ) -> EventQueue.Record {
        let (id, name) = table.withLock { table -> (Int32, String) in
            if let id = table.ids[sound] { return (id, sound) }
            let digits = sound.reversed().prefix { $0.isASCII && $0.isNumber }.count
            let head = sound.dropLast(digits)
            if digits > 0, head.hasSuffix(" stem "), let id = table.ids[String(head.dropLast(6))] {
                return (id, String(head.dropLast(6)))
            }
            return (-1, sound)
        }
        return .init(
            type: type, soundID: id, name: name, time: time.inSeconds, reason: reason,
            voice: voice.ticket)
    }

    private static func code(of reason: SoundEvent.FinishReason) -> Int32 {
        switch reason {
        case .ended: Int32(SS_FINISH_ENDED.rawValue)
        case .stopped: Int32(SS_FINISH_STOPPED.rawValue)
        case .stolen: Int32(SS_FINISH_STOLEN.rawValue)
        case .deviceLost: Int32(SS_FINISH_DEVICE_LOST.rawValue)
        }
    }
}

/// An engine's sounds by id: ids are given in load order, 0, 1, 2..., and never reused.
struct SoundTable: Sendable {
    /// One loaded sound.
    struct Sound: Sendable {
        /// Its name (a catalogue name, or the name `ss_load_file` gave).
        let name: String
        /// The decoded file of an `ss_load_file` sound; `nil` for a catalogue sound, which plays through
        /// the effect station so the catalogue's limits apply.
        let file: SoundBuffer?
    }

    private(set) var sounds: [Sound] = []
    private(set) var ids: [String: Int32] = [:]

    /// The sound with `id`, if there is one.
    func sound(_ id: Int32) -> Sound? {
        id >= 0 && Int(id) < sounds.count ? sounds[Int(id)] : nil
    }

    /// Gives `sound` the next id, or returns the id its name already has.
    mutating func add(_ sound: Sound) -> Int32 {
        if let id = ids[sound.name] { return id }
        let id = Int32(sounds.count)
        sounds.append(sound)
        ids[sound.name] = id
        return id
    }
}

/// A name a new sound or track may take: valid UTF-8, not empty, not taken by the catalogue or a load.
/// - Parameters:
///   - name: The caller's C string.
///   - engine: The handle.
///   - system: Its open sound system.
///   - unnamed: What lacks the name, for the message ("the file"): "give \(unnamed) a name".
///   - kind: What the name is for ("sound", "track"), for the message.
/// - Returns: The name.
/// - Throws: ``CError`` naming the fault: NULL or not UTF-8, empty, or already in use.
func newSoundName(
    _ name: UnsafePointer<CChar>?, in engine: CEngine, system: SoundSystem, unnamed: String,
    kind: String = "sound"
) throws(CError) -> String {
    let name = try string(name, "name")
    guard !name.isEmpty else {
        throw .invalid("the \(kind) name is empty: give the \(unnamed) a name to play it by")
    }
    if system.catalogue[name] != nil || engine.table.withLock({ $0.ids[name] }) != nil {
        throw .invalid("sound name \"\(name)\" is already in use in this engine: choose another name")
    }
    return name
}
