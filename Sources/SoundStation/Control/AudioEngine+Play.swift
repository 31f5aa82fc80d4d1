import CSoundStationRT

extension AudioEngine {
    /// Plays `buffer` once (or looping) now or at a time on the engine clock.
    ///
    /// The call never waits: it writes a command into the engine's lock-free ring and returns; the
    /// mixing side admits the sound (limits, priority, stealing) and starts it at its next round
    /// (offline: a sound for time `t` starts at frame `round(t * sampleRate)`, one without a time at
    /// the next rendered frame). It takes no lock and allocates nothing.
    /// - Parameters:
    ///   - buffer: A buffer made by this engine.
    ///   - options: Volume, pitch, pan, looping, priority and bus.
    ///   - time: When to start, on the engine clock (``time``); `nil` or a past time starts at once.
    /// - Returns: The voice's handle, or `nil` when the engine has fallen 4,096 commands behind.
    ///   When every voice is busy with more important sounds the handle is never active and a
    ///   ``SoundEvent/refused(_:sound:time:)`` event says so.
    /// - Throws: ``AudioEngineError/invalidArgument(name:value:expected:)`` for a buffer made by
    ///   another engine or a value of `options` out of its range (``PlayOptions/check()``).
    @discardableResult
    public func play(_ buffer: SoundBuffer, options: PlayOptions = PlayOptions(), at time: Duration? = nil)
        throws(AudioEngineError) -> VoiceHandle?
    {
        try checkPlay(of: "buffer", named: buffer.name, madeOn: buffer.ring, options: options)
        // The command holds the buffer, so a buffer made and dropped in one expression still plays.
        return trigger(buffer.id, options: options, at: time, carrying: buffer)
    }

    /// Throws unless a buffer or stream was made on this engine's `ring` and `options` are in range.
    func checkPlay(of kind: String, named name: String, madeOn owner: CommandRing, options: PlayOptions)
        throws(AudioEngineError)
    {
        guard owner === ring else {
            throw .invalidArgument(
                name: kind, value: "\"\(name)\"", expected: "a \(kind) made by this engine")
        }
        try options.check()
    }

    /// Writes one play command with `options` as they are (checked by the caller,
    /// ``PlayOptions/check()``), carrying `object` (a buffer, a stream feeder or a feed's ring)
    /// retained until the mixing side takes it over: a retain is an atomic increment.
    func trigger(_ sound: SoundID, options: PlayOptions, at time: Duration?, carrying object: AnyObject)
        -> VoiceHandle?
    {
        let retained = Unmanaged.passRetained(object)
        let handle = trigger(
            sound, options: options, at: time, soundDefaults: false, retained: retained.toOpaque())
        if handle == nil { retained.release() }
        return handle
    }

    /// Writes one play command for `sound` into the ring.
    /// - Parameters:
    ///   - soundDefaults: Take priority, bus and limits from the sound's table entry and multiply
    ///     its volume, rather than using `options` as they are.
    ///   - retained: A retained buffer or stream feeder for the command to carry; the caller releases it
    ///     on `nil`.
    ///   - ticket: The ticket of a handle from ``awaitVoice()``; nil for a new one.
    package func trigger(
        _ sound: SoundID, options: PlayOptions, at time: Duration?, soundDefaults: Bool,
        retained: UnsafeMutableRawPointer? = nil, ticket: UInt64? = nil
    ) -> VoiceHandle? {
        let ticket = ticket ?? ring.nextTicket()
        let frame = time.map(frame(for:)) ?? Int64(SSRT_NOW)
        let command = ssrt_command(
            ticket: ticket, sound: sound, options: options, frame: frame, soundDefaults: soundDefaults,
            retained: retained)
        return ring.push(command) ? VoiceHandle(ticket: ticket) : nil
    }

    /// Runs `action` when the engine clock reaches `time`: exactly at that frame while rendering offline,
    /// within a few milliseconds on a device. Anything the action plays is heard from `time` on.
    ///
    /// The action runs on the mixing side (the driver thread; the caller of ``render(frames:)``
    /// offline), outside the engine's lock: keep it short, as a trigger is.
    /// - Parameters:
    ///   - time: A time on the engine clock; a past time runs at the next chance.
    ///   - action: The work (it may call the engine).
    public func schedule(at time: Duration, _ action: @escaping @Sendable () -> Void) {
        schedule(atFrame: frame(for: time), action)
    }

    /// ``schedule(at:_:)`` at a frame of the render clock.
    func schedule(atFrame frame: Int64, _ action: @escaping @Sendable () -> Void) {
        submit(.call(frame: frame, action))
    }

    /// Stops a voice at once, or fading out; a stale handle does nothing.
    /// - Parameters:
    ///   - voice: The handle ``play(_:options:at:)-(SoundBuffer,_,_)`` returned.
    ///   - fade: How long to fade out before stopping; `.zero` (or less) stops at once.
    public func stop(_ voice: VoiceHandle, fade: Duration = .zero) {
        submit(.stop(voice, fade: fade))
    }

    /// Pauses one voice where it is; a voice still waiting for its start begins paused. A stale
    /// handle does nothing.
    /// - Parameter voice: The voice.
    public func pause(_ voice: VoiceHandle) { submit(.pause(voice)) }

    /// Resumes a voice paused by ``pause(_:)`` (unless the whole engine is paused); one paused while
    /// it waited for its start begins at its start after all.
    /// - Parameter voice: The voice.
    public func resume(_ voice: VoiceHandle) { submit(.resume(voice)) }

    /// Stops every voice, or those on one bus, at once or fading out.
    /// - Parameters:
    ///   - bus: Only voices on this bus; `nil` for all.
    ///   - fade: How long to fade out; `.zero` (or less) stops at once.
    public func stopAll(on bus: Bus? = nil, fade: Duration = .zero) {
        submit(.stopAll(bus: bus, fade: fade))
    }

    /// Changes a playing voice's volume (before fades and bus gains) at once; a stale handle does nothing.
    /// - Parameters:
    ///   - volume: Linear gain in ``PlayOptions/volumeRange``.
    ///   - voice: The voice.
    /// - Throws: ``AudioEngineError/invalidArgument(name:value:expected:)`` for a volume out of range.
    public func setVolume(_ volume: Float, for voice: VoiceHandle) throws(AudioEngineError) {
        try PlayOptions.check(volume: volume)
        submit(.setVoice(voice, .volume, volume, tween: nil))
    }

    /// Changes a playing voice's pitch (1 as recorded) at once; a stale handle does nothing.
    /// - Parameters:
    ///   - pitch: Playback speed in ``PlayOptions/pitchRange``; 0.5...2 sounds natural.
    ///   - voice: The voice.
    /// - Throws: ``AudioEngineError/invalidArgument(name:value:expected:)`` for a pitch out of range.
    public func setPitch(_ pitch: Float, for voice: VoiceHandle) throws(AudioEngineError) {
        try PlayOptions.check(pitch: pitch)
        submit(.setVoice(voice, .pitch, pitch, tween: nil))
    }
}
