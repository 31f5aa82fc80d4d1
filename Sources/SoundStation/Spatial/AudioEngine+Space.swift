import Foundation

extension AudioEngine {
    /// How long position changes glide by default, so a moving sound never clicks.
    public static let positionGlide: Duration = .milliseconds(50)

    /// Carries out ``EngineCommand/setSpatialLayout(_:)``.
    func applyLayout(_ layout: SpatialLayout, in state: inout EngineState) {
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

    /// Carries out ``EngineCommand/setListener(_:glide:)``.
    func applyListener(_ position: SoundPosition, glide: Duration, in state: inout EngineState) {
        let now = currentFrame(&state)
        state.space.listener = state.space.listener.retargeted(to: position, at: now, over: frame(for: glide))
        wakeSoon(&state)
    }

    /// Carries out ``EngineCommand/setPosition(_:_:glide:)``.
    func applyPosition(
        _ position: SoundPosition, to voice: VoiceHandle, glide: Duration, in state: inout EngineState
    ) {
        guard let slot = state.pool.slot(of: voice) else { return }
        let now = currentFrame(&state)
        let frames = frame(for: glide)
        state.pool.update(slot) { voice in
            voice.options.position = position
            // A voice placed for the first time is placed at the next housekeeping (a ramp that
            // ended at frame 0 would count as long settled).
            voice.positionRamp =
                voice.positionRamp?.retargeted(to: position, at: now, over: frames)
                ?? PositionRamp(from: position, to: position, start: now, end: now)
        }
        wakeSoon(&state)
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

    /// Carries out ``EngineCommand/setBusFilter(_:_:glide:)``.
    func applyFilter(_ filter: SoundFilter?, to bus: Bus, glide: Duration, in state: inout EngineState) {
        let now = currentFrame(&state)
        state.space.busFilters[bus] = filter
        retarget(&state.space.busCutoffs[bus], to: filter?.cutoffFilter, glide: frame(for: glide), at: now)
        if state.space.busCutoffs[bus] != nil {
            for slot in state.pool.busySlots where state.pool.voices[Int(slot)].options.bus == bus {
                engageCutoff(slot, in: &state, at: now)
            }
        }
        refreshEffects(on: bus, in: &state)
    }

    /// Carries out ``EngineCommand/setVoiceFilter(_:_:glide:)``.
    func applyFilter(
        _ filter: SoundFilter?, to voice: VoiceHandle, glide: Duration, in state: inout EngineState
    ) {
        guard let slot = state.pool.slot(of: voice) else { return }
        let now = currentFrame(&state)
        var ramp = state.pool.voices[Int(slot)].cutoffRamp
        retarget(&ramp, to: filter?.cutoffFilter, glide: frame(for: glide), at: now)
        state.pool.update(slot) {
            $0.options.filter = filter
            $0.cutoffRamp = ramp
        }
        if ramp != nil { engageCutoff(slot, in: &state, at: now) }
        let current = state.pool.voices[Int(slot)]
        if let source = current.source { applyEffects(to: source, options: current.options, in: &state) }
    }

    /// Carries out ``EngineCommand/setBusReverb(_:_:)``; OpenAL refusing it is told as a notice.
    func applyReverb(_ reverb: Reverb?, to bus: Bus, in state: inout EngineState) {
        do throws(AudioEngineError) {
            try effects(&state).setReverb(reverb, bus: bus.index)
        } catch {
            let notice = "the reverb on the \(bus) bus: \(error.description)"
            DispatchQueue.global().async { [notices] in notices.send(notice) }
            return
        }
        state.space.busReverbs[bus] = reverb
        refreshEffects(on: bus, in: &state)
    }

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
        let clear = filter == nil && send == 0
        if clear, !source.effectsSet { return }
        effects.apply(to: source.id, filter: filter, bus: options.bus.index, send: send)
        source.effectsSet = !clear
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
}
