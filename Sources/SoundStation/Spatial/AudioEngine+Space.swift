import Dispatch
import Glibc

extension AudioEngine {
    /// How long position changes glide by default, so a moving sound never clicks.
    public static let positionGlide: Duration = .milliseconds(50)

    // MARK: Positions

    /// How positions become pan and loudness: the stereo field's width and the distance model.
    public var spatialLayout: SpatialLayout {
        state.withLock { $0.space.layout }
    }

    /// Sets how positions become pan and loudness; positioned voices follow at the next round.
    /// - Parameter layout: The stereo field's width and the distance model.
    /// - Throws: ``AudioEngineError/invalidArgument(name:value:expected:)`` naming a bad width,
    ///   reference or maximum distance, or rolloff.
    public func setSpatialLayout(_ layout: SpatialLayout) throws(AudioEngineError) {
        try layout.check()
        state.withLock { state in
            state.space.layout = layout
            // A listener at rest "moves" in place for one step, so every positioned voice is placed
            // again (a gliding one makes that happen already).
            let now = currentFrame(&state)
            let listener = state.space.listener
            if listener.isDone(at: now) {
                state.space.listener = PositionRamp(
                    from: listener.to, to: listener.to, start: now, end: now + Self.quantum)
            }
            wakeSoon(&state)
        }
    }

    /// Where the listener is now (mid-glide: where it has got to).
    public var listener: SoundPosition {
        state.withLock { state in state.space.listener.value(at: currentFrame(&state)) }
    }

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
        let frames = try glideFrames(glide)
        state.withLock { state in
            let now = currentFrame(&state)
            state.space.listener = state.space.listener.retargeted(to: position, at: now, over: frames)
            wakeSoon(&state)
        }
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
        let frames = try glideFrames(glide)
        withState { state, _ in
            guard let slot = state.pool.slot(of: voice) else { return }
            let now = currentFrame(&state)
            state.pool.update(slot) { voice in
                voice.options.position = position
                voice.positionRamp =
                    voice.positionRamp?.retargeted(to: position, at: now, over: frames) ?? .constant(position)
            }
            wakeSoon(&state)
        }
    }

    /// Changes a playing sound's pan (-1 left ... 1 right); a positioned sound stops following its
    /// position. A stale handle does nothing.
    /// - Parameters:
    ///   - pan: -1...1.
    ///   - voice: The sound's handle.
    /// - Throws: ``AudioEngineError/invalidArgument(name:value:expected:)`` for a pan outside -1...1.
    public func setPan(_ pan: Float, for voice: VoiceHandle) throws(AudioEngineError) {
        try PlayOptions.check(pan: pan)
        withState { state, _ in
            guard let slot = state.pool.slot(of: voice) else { return }
            applyPan(pan, to: slot, in: &state, at: currentFrame(&state))
        }
    }

    /// Sets a voice's pan now, leaving its position (a tween moves it through here).
    func applyPan(_ pan: Float, to slot: Int32, in state: inout EngineState, at now: Int64) {
        state.pool.update(slot) { voice in
            voice.positionRamp = nil
            voice.options.position = nil
            voice.options.distanceGain = 1
            voice.options.pan = pan
        }
        let voice = state.pool.voices[Int(slot)]
        voice.source?.setPan(pan, channels: channels(of: voice), spatialize: voice.options.spatialize)
        applyGain(slot, in: &state, at: now)
    }

    // MARK: Filters and reverb

    /// Whether the device has EFX, so filters and reverb are heard. Without it they are accepted
    /// and do nothing, and the notice handler is told once.
    public var effectsAvailable: Bool {
        state.withLock { effects(&$0).isAvailable }
    }

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
        let frames = try glideFrames(glide)
        withState { state, _ in
            let now = currentFrame(&state)
            state.space.busFilters[bus] = filter
            retarget(&state.space.busCutoffs[bus], to: filter?.cutoffFilter, glide: frames, at: now)
            if state.space.busCutoffs[bus] != nil {
                for slot in state.pool.busySlots where state.pool.voices[Int(slot)].options.bus == bus {
                    engageCutoff(slot, in: &state, at: now)
                }
            }
            refreshEffects(on: bus, in: &state)
        }
    }

    /// The filter set on `bus`, if any.
    /// - Parameter bus: The bus.
    /// - Returns: Its filter.
    public func filter(of bus: Bus) -> SoundFilter? { state.withLock { $0.space.busFilters[bus] } }

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
        let frames = try glideFrames(glide)
        withState { state, _ in
            guard let slot = state.pool.slot(of: voice) else { return }
            let now = currentFrame(&state)
            var ramp = state.pool.voices[Int(slot)].cutoffRamp
            retarget(&ramp, to: filter?.cutoffFilter, glide: frames, at: now)
            state.pool.update(slot) {
                $0.options.filter = filter
                $0.cutoffRamp = ramp
            }
            if ramp != nil { engageCutoff(slot, in: &state, at: now) }
            let voice = state.pool.voices[Int(slot)]
            if let source = voice.source { applyEffects(to: source, options: voice.options, in: &state) }
        }
    }

    /// Gives `bus` a reverb that every voice on it sends to (at its ``PlayOptions/reverbSend``), or
    /// takes it away.
    /// - Parameters:
    ///   - reverb: Parameters, e.g. ``ReverbPreset/parameters``; `nil` for none.
    ///   - bus: The bus.
    /// - Throws: ``AudioEngineError/invalidArgument(name:value:expected:)`` for a parameter out of
    ///   EFX's range, or ``AudioEngineError/openAL(call:code:)`` when OpenAL refuses it.
    public func setReverb(_ reverb: Reverb?, for bus: Bus) throws(AudioEngineError) {
        try reverb?.check()
        var failure: AudioEngineError?
        withState { state, _ in
            do throws(AudioEngineError) {
                try effects(&state).setReverb(reverb, bus: bus.index)
            } catch {
                failure = error
                return
            }
            state.space.busReverbs[bus] = reverb
            refreshEffects(on: bus, in: &state)
        }
        if let failure { throw failure }
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
    public func reverb(of bus: Bus) -> Reverb? { state.withLock { $0.space.busReverbs[bus] } }

    /// Calls `handler` with one-line notices, such as that the device has no EFX (said once).
    /// - Parameter handler: Receives each notice, on a dispatch worker (never under the engine's
    ///   lock, so it may call the engine).
    /// - Returns: A subscription whose `cancel()` stops the calls.
    @discardableResult
    public func onNotice(_ handler: @escaping @Sendable (String) -> Void) -> EventSubscription {
        notices.add(handler)
    }

    // MARK: The mixing side

    /// Works out a positioned voice's pan and distance gain at `frame` into its options (no AL call).
    func placeVoice(_ slot: Int32, in state: inout EngineState, at frame: Int64) {
        guard let ramp = state.pool.voices[Int(slot)].positionRamp else { return }
        let (pan, gain) = state.space.layout.placement(
            of: ramp.value(at: frame), listener: state.space.listener.value(at: frame))
        state.pool.update(slot) { voice in
            voice.options.pan = pan
            voice.options.distanceGain = gain
        }
    }

    /// Places a positioned voice again when it, the listener or the layout moved, and sends its pan
    /// to OpenAL (its gain follows in ``applyGain(_:in:at:levels:)``).
    /// - Returns: Whether it is still gliding, so housekeeping keeps to the fine grid.
    func moveVoice(_ slot: Int32, in state: inout EngineState, at frame: Int64) -> Bool {
        let index = Int(slot)
        guard let ramp = state.pool.voices[index].positionRamp else { return false }
        let listenerMoving = !state.space.listener.isDone(at: frame)
        // One more placement after a glide ends lands it exactly on its target.
        let recent = frame - Self.quantum < max(ramp.end, state.space.listener.end)
        guard recent || listenerMoving else { return false }
        let oldPan = state.pool.voices[index].options.pan
        placeVoice(slot, in: &state, at: frame)
        let voice = state.pool.voices[index]
        if voice.options.pan != oldPan {
            voice.source?.setPan(
                voice.options.pan, channels: channels(of: voice), spatialize: voice.options.spatialize)
        }
        return !ramp.isDone(at: frame) || listenerMoving
    }

    /// Sets a source's filter (its own in series with its bus's) and its send to its bus's reverb.
    func applyEffects(to source: OpenALSource, options: PlayOptions, in state: inout EngineState) {
        let effects = effects(&state)
        guard effects.isAvailable else {
            if options.filter?.shelf != nil || state.space.busFilters[options.bus]?.shelf != nil
                || state.space.busReverbs[options.bus] != nil
            {
                sayNoEffects(&state)
            }
            return
        }
        // Cutoff filters are the engine's own (Filtering/); only shelves go to EFX.
        let busFilter = state.space.busFilters[options.bus]?.shelf
        let filter = options.filter?.shelf?.combined(with: busFilter) ?? busFilter
        let send = state.space.busReverbs[options.bus] == nil ? 0 : options.reverbSend
        effects.apply(to: source.id, filter: filter, bus: options.bus.index, send: send)
    }

    /// Applies a bus's filter and reverb to every voice on it now.
    private func refreshEffects(on bus: Bus, in state: inout EngineState) {
        for slot in state.pool.busySlots where state.pool.voices[Int(slot)].options.bus == bus {
            let voice = state.pool.voices[Int(slot)]
            if let source = voice.source { applyEffects(to: source, options: voice.options, in: &state) }
        }
        if !effects(&state).isAvailable { sayNoEffects(&state) }
    }

    /// The current device's EFX objects, made on first use and again after the device changed.
    func effects(_ state: inout EngineState) -> OpenALEffects {
        let device = self.device
        if let effects = state.space.effects, effects.device === device { return effects }
        let effects = OpenALEffects(device: device)
        // A new device (after a loss) gets the HRTF setting the old one had.
        if state.space.effects != nil, state.space.hrtf { _ = device.resetHRTF(true) }
        state.space.effects = effects
        for (bus, reverb) in state.space.busReverbs {
            try? effects.setReverb(reverb, bus: bus.index)
        }
        return effects
    }

    private func sayNoEffects(_ state: inout EngineState) {
        guard !state.space.saidNoEffects else { return }
        state.space.saidNoEffects = true
        let notice =
            "\(device.name) has no EFX (ALC_EXT_EFX): filters and reverb are accepted and do nothing."
        // Said from a worker: this runs under the state lock, and a handler may call the engine.
        DispatchQueue.global().async { [notices] in notices.send(notice) }
    }

    private func channels(of voice: Voice) -> Int {
        voice.buffer?.channels ?? voice.stream?.format?.channels ?? 1
    }

    func glideFrames(_ glide: Duration) throws(AudioEngineError) -> Int64 {
        guard glide >= .zero else {
            throw .invalidArgument(name: "glide", value: "\(glide)", expected: ".zero or longer")
        }
        return frame(for: glide)
    }
}
