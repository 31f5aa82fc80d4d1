import CSoundStationRT
import Synchronization

/// Owns the engine's real-time core (`ssrt_core`, written in C): the lock-free ring that carries
/// triggers from game threads and signal handlers to the mixing side, the per-sound ready flags,
/// the ticket counter, and the semaphore that wakes the driver thread when it sleeps rather than polls.
///
/// Producers (``push(_:)`` from the engine, `ssrt_trigger` from ``TriggerPort``) may run on any thread
/// at once; the consumer side (``nextBatch()``, ``drain(_:)``) runs only on the thread holding the
/// mixer (``Mixer/run(_:)``), which makes it single.
/// `@unchecked Sendable`: the C core is built for exactly this sharing (atomics per cell), and the
/// drain scratch buffer is touched only by the single consumer.
final class CommandRing: @unchecked Sendable {
    /// Commands taken per drain step.
    static let drainBatch = 256

    let core: OpaquePointer
    private let scratch: UnsafeMutablePointer<ssrt_command>
    /// Counts the game's calls that carry no command but say it is active (a sound loaded): a
    /// device's driver polls while the game is active (``DriverThread``).
    private let calls = Atomic<UInt64>(0)

    init() throws(AudioEngineError) {
        guard let core = ssrt_core_create() else {
            throw .invalidArgument(
                name: "memory", value: "ssrt_core_create", expected: "memory for the command ring")
        }
        self.core = core
        scratch = .allocate(capacity: Self.drainBatch)
    }

    deinit {
        ssrt_core_destroy(core)
        scratch.deallocate()
    }

    /// A new, never reused ticket.
    func nextTicket() -> UInt64 { ssrt_next_ticket(core) }

    /// Appends a command; false when the ring is full.
    func push(_ command: ssrt_command) -> Bool {
        withUnsafePointer(to: command) { ssrt_push(core, $0) == 0 }
    }

    /// Marks a sound id as playable by id, or not.
    func setReady(_ id: SoundID, _ ready: Bool) {
        ssrt_set_ready(core, id.rawValue, ready ? 1 : 0)
    }

    /// Whether a sound id is marked playable.
    func isReady(_ id: SoundID) -> Bool { ssrt_is_ready(core, id.rawValue) != 0 }

    /// Takes up to ``drainBatch`` waiting commands, oldest first, into the consumer's scratch space
    /// (valid until the next call). Consumer only.
    func nextBatch() -> UnsafeBufferPointer<ssrt_command> {
        UnsafeBufferPointer(start: scratch, count: Int(ssrt_drain(core, scratch, Int32(Self.drainBatch))))
    }

    /// Calls `body` with every waiting command, oldest first. Consumer only.
    func drain(_ body: (ssrt_command) -> Void) {
        while true {
            let count = Int(ssrt_drain(core, scratch, Int32(Self.drainBatch)))
            for index in 0..<count { body(scratch[index]) }
            if count < Self.drainBatch { return }
        }
    }

    /// Whether a command waits to be drained.
    var hasPending: Bool { ssrt_pending(core) != 0 }

    /// Sleeps until a command arrives, ``wake()`` is called or `timeout` passes. Driver thread only.
    func wait(_ timeout: Duration) { _ = ssrt_wait(core, Self.nanoseconds(timeout)) }

    /// Sleeps up to `timeout` without asking triggers to post: it looks every `interval` (`nil`: only
    /// at the end) whether a command or a ``wake()`` came, and returns then; a ``kick()`` ends it at
    /// once (see `ssrt_poll`). Driver thread only.
    /// - Returns: False when `timeout` passed with nothing asked for.
    @discardableResult
    func poll(_ timeout: Duration, every interval: Duration? = nil) -> Bool {
        ssrt_poll(core, Self.nanoseconds(timeout), interval.map(Self.nanoseconds) ?? 0) != 0
    }

    /// How many commands have been carried out so far.
    var drainedCount: UInt64 { ssrt_drained(core) }

    /// Wakes the driver: ends a ``wait(_:)`` (a post), or marks the wake-up a ``poll(_:every:)`` looks for.
    func wake() { ssrt_wake(core) }

    /// Wakes the driver from ``wait(_:)`` or ``poll(_:every:)`` now: for a caller about to wait for it.
    func kick() { ssrt_kick(core) }

    /// Counts a call that carries no command but says the game is active (``AudioEngine/noteCall()``).
    func noteCall() { calls.add(1, ordering: .relaxed) }

    /// How many calls ``noteCall()`` has counted.
    var callCount: UInt64 { calls.load(ordering: .relaxed) }

    /// How many times a command, a ``wake()`` or a ``kick()`` has posted the driver's semaphore: a
    /// command that finds the driver polling posts nothing.
    var posts: UInt64 { ssrt_posts(core) }

    /// How many times the mixing side has published its snapshot; read before checking it, then
    /// pass to ``waitForPublication(after:timeout:)``.
    var publications: UInt32 { ssrt_publications(core) }

    /// Counts a publication and wakes the threads waiting for one. Mixing side only.
    func notePublished() { ssrt_note_published(core) }

    /// Sleeps until a publication after `seen`, or `timeout` passes.
    func waitForPublication(after seen: UInt32, timeout: Duration) {
        _ = ssrt_wait_published(core, seen, Self.nanoseconds(timeout))
    }

    /// A sleep's length as the C core takes it: whole nanoseconds, none for a negative one.
    private static func nanoseconds(_ timeout: Duration) -> Int64 {
        let (seconds, attoseconds) = timeout.components
        return max(0, seconds) * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}

extension ssrt_command {
    /// A play command for `sound` with explicit options.
    /// - Parameter retained: A retained reference the consumer takes over (``AudioEngine`` passes the
    ///   buffer, so it lives until the command is carried out).
    init(
        ticket: UInt64, sound: SoundID, options: PlayOptions, frame: Int64, soundDefaults: Bool,
        retained: UnsafeMutableRawPointer? = nil
    ) {
        self.init()
        self.retained = retained
        self.ticket = ticket
        self.frame = frame
        self.sound = sound.rawValue
        volume = options.volume
        pitch = options.pitch
        pan = options.pan
        op = UInt8(SSRT_OP_PLAY.rawValue)
        var flags: UInt32 = 0
        if options.loop { flags |= SSRT_FLAG_LOOP.rawValue }
        if soundDefaults { flags |= SSRT_FLAG_SOUND_DEFAULTS.rawValue }
        if let position = options.position {
            flags |= SSRT_FLAG_POSITIONED.rawValue
            (x, y, z) = (position.x, position.y, position.z)
        }
        if options.spatialize { flags |= SSRT_FLAG_SPATIALIZE.rawValue }
        reverb_send = options.reverbSend
        duck_music_db = options.duckMusic
        // Most triggers fade in over nothing: no Duration arithmetic for them.
        fade_in = options.fadeIn == .zero ? 0 : Float(options.fadeIn.inSeconds)
        repeats = Int32(clamping: options.repeats)
        pitch_shift = Float(options.pitchShift)
        let kind: ssrt_filter
        switch options.filter {
        case nil: kind = SSRT_FILTER_NONE
        case .lowpass(let gain, let hf):
            (kind, filter_values.shelf.gain_hf) = (SSRT_FILTER_LOWPASS, hf)
            volume *= gain
        case .highpass(let gain, let lf):
            (kind, filter_values.shelf.gain_lf) = (SSRT_FILTER_HIGHPASS, lf)
            volume *= gain
        case .bandpass(let gain, let lf, let hf):
            (kind, filter_values.shelf.gain_lf, filter_values.shelf.gain_hf) = (SSRT_FILTER_BANDPASS, lf, hf)
            volume *= gain
        case .cutoff(let cutoff):
            switch cutoff.kind {
            case .lowpass: kind = SSRT_FILTER_LOWPASS_HZ
            case .highpass: kind = SSRT_FILTER_HIGHPASS_HZ
            case .bandpass: kind = SSRT_FILTER_BANDPASS_HZ
            }
            (filter_values.cutoff.hz, filter_values.cutoff.q) = (cutoff.cutoff, cutoff.q)
        }
        filter = UInt8(kind.rawValue)
        self.flags = UInt8(flags)
        priority = UInt8(clamping: options.priority)
        bus = options.bus.index
    }

    /// Whether volume, pitch and pan lie in their ranges (``PlayOptions/volumeRange``,
    /// ``PlayOptions/pitchRange``, ``PlayOptions/panRange``: ssrt.h's); false for NaN.
    var numbersInRange: Bool {
        PlayOptions.volumeRange.contains(volume) && PlayOptions.pitchRange.contains(pitch)
            && PlayOptions.panRange.contains(pan)
    }

    var usesSoundDefaults: Bool { UInt32(flags) & SSRT_FLAG_SOUND_DEFAULTS.rawValue != 0 }
    var loops: Bool { UInt32(flags) & SSRT_FLAG_LOOP.rawValue != 0 }
    /// With sound defaults: keep the command's bus (priority) over the sound's.
    var ownBus: Bool { UInt32(flags) & SSRT_FLAG_OWN_BUS.rawValue != 0 }
    var ownPriority: Bool { UInt32(flags) & SSRT_FLAG_OWN_PRIORITY.rawValue != 0 }

    /// The position a positioned command carries.
    var position: SoundPosition? {
        UInt32(flags) & SSRT_FLAG_POSITIONED.rawValue != 0 ? SoundPosition(x: x, y: y, z: z) : nil
    }

    var spatializes: Bool { UInt32(flags) & SSRT_FLAG_SPATIALIZE.rawValue != 0 }

    /// The voice's own filter (its overall gain travels in the volume).
    var voiceFilter: SoundFilter? {
        let (shelf, cutoff) = (filter_values.shelf, filter_values.cutoff)
        return switch UInt32(filter) {
        case SSRT_FILTER_LOWPASS.rawValue: .lowpass(gainHF: shelf.gain_hf)
        case SSRT_FILTER_HIGHPASS.rawValue: .highpass(gainLF: shelf.gain_lf)
        case SSRT_FILTER_BANDPASS.rawValue: .bandpass(gainLF: shelf.gain_lf, gainHF: shelf.gain_hf)
        case SSRT_FILTER_LOWPASS_HZ.rawValue: .lowpass(cutoff: cutoff.hz, q: cutoff.q)
        case SSRT_FILTER_HIGHPASS_HZ.rawValue: .highpass(cutoff: cutoff.hz, q: cutoff.q)
        case SSRT_FILTER_BANDPASS_HZ.rawValue: .bandpass(center: cutoff.hz, q: cutoff.q)
        default: nil
        }
    }
}
