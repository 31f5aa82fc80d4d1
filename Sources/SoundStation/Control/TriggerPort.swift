import CSoundStationRT

/// Starts preloaded sounds by id from anywhere, a signal handler included.
///
/// ``play(_:volume:pitch:pan:)`` is async-signal-safe: it takes no lock, allocates nothing and makes
/// no call into the Swift runtime that could; it writes one fixed-size command into the engine's
/// lock-free ring and, when the driver sleeps, posts its semaphore (`sem_post`, which POSIX lists as
/// async-signal-safe; while the game is active a device's driver polls and nothing is posted). A
/// terminal game that runs its logic in a `SIGALRM` handler can fire its
/// effects from there.
///
/// ```swift
/// let port = sound.engine.triggerPort        // get it once, outside the handler
/// let blip = try sound.bank.id(of: "blip")   // resolve names once, after preloading
/// // ... in the signal handler:
/// _ = port.play(blip, volume: 0.8)
/// ```
///
/// The port holds a raw pointer into its engine and must not be used after the engine is freed:
/// keep the engine alive for as long as a handler may fire (a global, or stop the timer first).
public struct TriggerPort: @unchecked Sendable {
    // `@unchecked Sendable`: a pointer to the C core, which is built for any-thread use.
    let core: OpaquePointer
    let sampleRate: Double

    /// The C core (`ssrt_core *`), for a binding that triggers from C; valid while
    /// ``AudioEngine/triggerLifetime`` is held.
    @_spi(Bindings) public var rawCore: UnsafeMutableRawPointer { UnsafeMutableRawPointer(core) }

    /// Starts a loaded sound with its catalogue settings (priority, bus, limits), times `volume`.
    /// - Parameters:
    ///   - sound: An id from ``SoundBank/id(of:)-(String)`` or ``SoundBuffer/id``.
    ///   - volume: Multiplies the sound's own volume (linear gain, ``PlayOptions/volumeRange``).
    ///   - pitch: Playback speed: 1 as recorded (``PlayOptions/pitchRange``).
    ///   - pan: -1 left, 0 centre, 1 right. A number outside its range is a bad value, which a signal
    ///     handler cannot be told of by a throw: the start is refused (the handle is never active)
    ///     and a ``SoundEvent/refused(_:sound:time:)`` event says so. It is not clamped, because a
    ///     clamped pan (or pitch) plays a sound somewhere (or at a speed) the game never asked for and
    ///     hides the bug. The ranges are the ones every other entry throws for.
    /// - Returns: The voice's handle, or `nil` when `sound` is not loaded, a value is not a finite
    ///   number, or the engine has fallen 4,096 commands behind. A sound refused by its limits, by
    ///   the voice pool or for a number out of range still gets a handle; a
    ///   ``SoundEvent/refused(_:sound:time:)`` event says so.
    @inline(__always)
    public func play(_ sound: SoundID, volume: Float = 1, pitch: Float = 1, pan: Float = 0) -> VoiceHandle? {
        let ticket = ssrt_trigger(core, sound.rawValue, volume, pitch, pan, Int64(SSRT_NOW))
        return ticket > 0 ? VoiceHandle(ticket: UInt64(ticket)) : nil
    }

    /// Starts a loaded sound at a time on the engine clock (sample-exact offline).
    /// - Parameters:
    ///   - sound: The sound's id.
    ///   - time: A time on ``AudioEngine/time``; a past time starts at once.
    ///   - volume: Multiplies the sound's own volume.
    ///   - pitch: Playback speed.
    ///   - pan: -1 left, 0 centre, 1 right; a number out of range is refused as
    ///     ``play(_:volume:pitch:pan:)`` says.
    /// - Returns: As ``play(_:volume:pitch:pan:)``.
    public func play(_ sound: SoundID, at time: Duration, volume: Float = 1, pitch: Float = 1, pan: Float = 0)
        -> VoiceHandle?
    {
        // Plain arithmetic, clamped before converting: a time too far away must not trap in a signal
        // handler.
        let frame = AudioEngine.frame(forSeconds: time.inSeconds, rate: sampleRate)
        let ticket = ssrt_trigger(core, sound.rawValue, volume, pitch, pan, frame)
        return ticket > 0 ? VoiceHandle(ticket: UInt64(ticket)) : nil
    }
}
