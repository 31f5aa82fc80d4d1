extension AudioEngine {
    /// How positions become pan and loudness: the stereo field's width and the distance model.
    public var spatialLayout: SpatialLayout { settings.withLock { $0.layout } }

    /// Sets how positions become pan and loudness; positioned voices follow at the next round.
    /// - Parameter layout: The stereo field's width and the distance model.
    /// - Throws: ``AudioEngineError/invalidArgument(name:value:expected:)`` naming a bad width,
    ///   reference or maximum distance, or rolloff.
    public func setSpatialLayout(_ layout: SpatialLayout) throws(AudioEngineError) {
        try layout.check()
        settings.withLock { $0.layout = layout }
        submit(.setSpatialLayout(layout))
    }

    /// Where the listener is asked to be (the end of its glide, if it is gliding).
    public var listener: SoundPosition { settings.withLock { $0.listener } }

    /// Moves the listener, gliding there so positioned sounds pan and fade smoothly.
    /// - Parameters:
    ///   - position: The new place, in the game's units.
    ///   - glide: How long it takes to get there; `.zero` jumps (OpenAL still smooths over its next mix).
    /// - Throws: ``AudioEngineError/invalidArgument(name:value:expected:)`` for a coordinate that is
    ///   not a finite number or a negative glide (the listener does not move).
    public func setListener(_ position: SoundPosition, glide: Duration = positionGlide)
        throws(AudioEngineError)
    {
        try position.check("listener")
        _ = try glideFrames(glide)
        settings.withLock { $0.listener = position }
        submit(.setListener(position, glide: glide))
    }

    /// Moves a playing sound, gliding there; a sound started without a position becomes positioned.
    /// A stale handle does nothing.
    /// - Parameters:
    ///   - position: The new place, in the game's units.
    ///   - voice: The sound's handle.
    ///   - glide: How long it takes to get there.
    /// - Throws: ``AudioEngineError/invalidArgument(name:value:expected:)`` for a coordinate that is
    ///   not a finite number or a negative glide.
    public func setPosition(
        _ position: SoundPosition, for voice: VoiceHandle, glide: Duration = positionGlide
    ) throws(AudioEngineError) {
        try position.check()
        _ = try glideFrames(glide)
        submit(.setPosition(voice, position, glide: glide))
    }

    /// Changes a playing sound's pan (-1 left ... 1 right); a positioned sound stops following its
    /// position. A stale handle does nothing.
    /// - Parameters:
    ///   - pan: -1...1.
    ///   - voice: The sound's handle.
    /// - Throws: ``AudioEngineError/invalidArgument(name:value:expected:)`` for a pan outside -1...1.
    public func setPan(_ pan: Float, for voice: VoiceHandle) throws(AudioEngineError) {
        try PlayOptions.check(pan: pan)
        submit(.setVoice(voice, .pan, pan, tween: nil))
    }

    func glideFrames(_ glide: Duration) throws(AudioEngineError) -> Int64 {
        guard glide >= .zero else {
            throw .invalidArgument(name: "glide", value: "\(glide)", expected: ".zero or longer")
        }
        return frame(for: glide)
    }
}
