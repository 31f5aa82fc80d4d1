/// Everything the mixer owns (``Mixer/state``), touched only by the thread holding the mixer.
struct EngineState {
    var pool: VoicePool
    /// The highest ticket taken from the ring (published, so a query knows which handles are still
    /// on their way).
    var lastTicket: UInt64 = 0
    /// The render clock: frames mixed so far (offline and silent) or elapsed on the wall clock (device).
    var frame: Int64 = 0
    /// What runs on the engine clock (closures, music changes that wait for their frame), ordered by
    /// frame then by when they were scheduled.
    var calls: [(frame: Int64, call: ScheduledCall)] = []
    /// True from noticing a lost device until it is reopened; housekeeping holds still meanwhile.
    var deviceLost = false
    var lastReopenAttempt: ContinuousClock.Instant?
    /// Whether a fade, glide or duck was moving at the last housekeeping, so the next must come soon.
    var fineSteps = true
    /// Set when a voice's gain was changed: OpenAL Soft glides a gain change over the whole next
    /// render call, so the next piece is kept to one quantum for the change to settle as fast as a
    /// fade step.
    var gainsMoved = false
    /// The bus levels the last housekeeping worked voices' gains out with: while they stay, a voice
    /// whose gain is settled (``Voice/gainSettled``) is skipped.
    var settledLevels: BusLevels?
    /// The render-clock frame by which housekeeping must run again (a fade step, a scheduled start or
    /// call, a refill, a sound's predicted end); `Int64.max` when nothing is due.
    var nextWakeFrame = Int64.max
    /// Frames a quiet engine (silent or remote output) has mixed on its small loopback device: the
    /// render clock's frames at ``AudioEngine/quietMixRate``, rounded up so the device is never behind.
    var quietFrames: Int64 = 0
    /// Times a streamed track's queue ran dry and had to be restarted.
    var underruns = 0
    /// True from ``AudioEngine/pauseAll()`` to ``AudioEngine/resumeAll()``.
    var isPaused = false
    /// Every voice's gain glides through this to silence on a pause and back on resume, so neither
    /// clicks.
    var pauseLevel = GainRamp.constant(1)
    /// True once a pause's glide has ended and the sources are paused where they are.
    var sourcesHeld = false
    /// The volume each bus is set to, and whether it is muted.
    var busVolumes = PerBus<Float>(1)
    var mutedBuses = PerBus(false)
    /// The level each bus is gliding towards its volume (or 0 when muted) with.
    var busLevels = PerBus(GainRamp.constant(1))
    /// How music dips under voice notes (and loud effects).
    var ducking = Ducking()
    var duckLevel = GainRamp.constant(1)
    /// Voices' volumes, pitches and pans and buses' volumes moving along tweens.
    var tweens: [ParameterTween] = []
    /// Voices whose play is promised but not written yet (``AudioEngine/awaitVoice()``: the SSH
    /// player's play waiting for its sound to load), by ticket, with the commands that came for each
    /// meanwhile, in order: carried out as soon as its play has started it.
    var awaited: [UInt64: [EngineCommand]] = [:]
    /// The listener, the spatial layout, bus filters and reverbs (Spatial/SpaceState.swift).
    var space = SpaceState()

    /// Removes and returns the calls due at or before `frame`, with their frames.
    mutating func takeDueCalls(upTo frame: Int64) -> [(frame: Int64, call: ScheduledCall)] {
        let count = calls.prefix { $0.frame <= frame }.count
        guard count > 0 else { return [] }
        defer { calls.removeFirst(count) }
        return Array(calls[..<count])
    }

    /// The frame of the next scheduled start or call.
    var nextEventFrame: Int64? {
        switch (pool.nextScheduledFrame, calls.first?.frame) {
        case (let start?, let call?): min(start, call)
        case (let start, let call): start ?? call
        }
    }

    /// The gain OpenAL should apply to `voice` at `frame`: its volume and fade, its bus, the master
    /// bus and, for music, the duck.
    func gain(of voice: Voice, at frame: Int64) -> Float {
        gain(options: voice.options, fade: voice.fade, at: frame)
    }

    /// ``gain(of:at:)`` from the two fields of a voice it depends on, looking up only its own bus.
    func gain(options: PlayOptions, fade: GainRamp, at frame: Int64) -> Float {
        let bus = options.bus
        var gain =
            options.volume * options.distanceGain * fade.value(at: frame)
            * busLevels[.master].value(at: frame) * pauseLevel.value(at: frame)
        if bus != .master { gain *= busLevels[bus].value(at: frame) }
        if bus == .music { gain *= duckLevel.value(at: frame) }
        return gain
    }

    /// ``gain(options:fade:at:)`` with the bus levels at `frame` already read (the same products, in
    /// the same order, so the same result to the bit).
    func gain(options: PlayOptions, fade: GainRamp, at frame: Int64, levels: BusLevels) -> Float {
        let bus = options.bus
        var gain =
            options.volume * options.distanceGain * fade.value(at: frame) * levels.buses[.master]
            * levels.pause
        if bus != .master { gain *= levels.buses[bus] }
        if bus == .music { gain *= levels.duck }
        return gain
    }

    /// Every bus's level and the duck at `frame`, read once for all the voices a housekeeping pass
    /// updates.
    func busLevels(at frame: Int64) -> BusLevels {
        BusLevels(
            buses: busLevels.map { $0.value(at: frame) }, duck: duckLevel.value(at: frame),
            pause: pauseLevel.value(at: frame))
    }

    /// Whether any bus level, the duck, the pause glide (and the quantum after it, in which OpenAL
    /// smooths its last step) or a voice fade is still moving at `frame`.
    func rampsMoving(at frame: Int64) -> Bool {
        !duckLevel.isDone(at: frame) || Bus.allCases.contains { !busLevels[$0].isDone(at: frame) }
            || (isPaused && !sourcesHeld) || !pauseLevel.isDone(at: frame)
    }
}

/// The level of each bus and of the music's duck at one frame.
struct BusLevels: Equatable {
    var buses: PerBus<Float>
    var duck: Float
    var pause: Float
}
