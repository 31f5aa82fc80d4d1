extension AudioEngine {
    /// Filters every voice on `bus` (in series with each voice's own filter), or stops (`nil`).
    ///
    /// A cutoff filter (``SoundFilter/lowpass(cutoff:q:)`` and its kin) moves the bus's voices onto
    /// the engine's filtered path, where they stay (unfiltered once the filter is off); a change is
    /// heard after ``filterLatency``, and with a `glide` its cutoff moves smoothly (logarithmically)
    /// from where it is. An EFX shelf applies at once and does not glide.
    /// - Parameters:
    ///   - filter: The filter, or `nil` for none.
    ///   - bus: The bus; ``Bus/master`` filters the voices on the master bus itself.
    ///   - glide: How long a cutoff takes to move there; `.zero` jumps. From or to no filter, a
    ///     low-pass glides from or to fully open (22 kHz), a high-pass from or to 10 Hz.
    /// - Throws: ``AudioEngineError/invalidArgument(name:value:expected:)`` naming a gain outside
    ///   0...1, a cutoff that is not above 0 and at most half ``sampleRate``, a Q that is not above 0,
    ///   or a negative glide.
    public func setFilter(_ filter: SoundFilter?, for bus: Bus, glide: Duration = .zero)
        throws(AudioEngineError)
    {
        try filter?.check(sampleRate: sampleRate)
        _ = try glideFrames(glide)
        settings.withLock { $0.busFilters[bus] = filter }
        submit(.setBusFilter(bus, filter, glide: glide))
    }

    /// The filter set on `bus`, if any.
    /// - Parameter bus: The bus.
    /// - Returns: Its filter.
    public func filter(of bus: Bus) -> SoundFilter? { settings.withLock { $0.busFilters[bus] } }

    /// Sets a playing voice's own filter; a stale handle does nothing.
    /// - Parameters:
    ///   - filter: The filter, or `nil` for none.
    ///   - voice: The sound's handle.
    ///   - glide: How long a cutoff takes to move there (see ``setFilter(_:for:glide:)-(_,Bus,_)``).
    /// - Throws: ``AudioEngineError/invalidArgument(name:value:expected:)`` naming a bad gain, cutoff,
    ///   Q or glide.
    public func setFilter(_ filter: SoundFilter?, for voice: VoiceHandle, glide: Duration = .zero)
        throws(AudioEngineError)
    {
        try filter?.check(sampleRate: sampleRate)
        _ = try glideFrames(glide)
        submit(.setVoiceFilter(voice, filter, glide: glide))
    }

    /// Gives `bus` a reverb that every voice on it sends to (at its ``PlayOptions/reverbSend``), or
    /// takes it away. OpenAL refusing the effect on the mixing side (out of effect slots) is told
    /// through ``onNotice(_:)``. While nothing on the bus sends to it for longer than its tail (one and
    /// a half times its decay), it rests and costs nothing; the next sound wakes it.
    /// - Parameters:
    ///   - reverb: Parameters, e.g. ``ReverbPreset/parameters``; `nil` for none.
    ///   - bus: The bus.
    /// - Throws: ``AudioEngineError/invalidArgument(name:value:expected:)`` for a parameter out of
    ///   EFX's range.
    public func setReverb(_ reverb: Reverb?, for bus: Bus) throws(AudioEngineError) {
        try reverb?.check()
        settings.withLock { $0.busReverbs[bus] = reverb }
        submit(.setBusReverb(bus, reverb))
    }

    /// Gives `bus` a reverb from the EFX preset list, or takes it away.
    /// - Parameters:
    ///   - preset: A preset, or `nil` for none.
    ///   - bus: The bus.
    /// - Throws: As ``setReverb(_:for:)-(Reverb?,_)``.
    public func setReverb(_ preset: ReverbPreset?, for bus: Bus) throws(AudioEngineError) {
        try setReverb(preset?.parameters, for: bus)
    }

    /// The reverb set on `bus`, if any.
    /// - Parameter bus: The bus.
    /// - Returns: Its parameters.
    public func reverb(of bus: Bus) -> Reverb? { settings.withLock { $0.busReverbs[bus] } }
}
