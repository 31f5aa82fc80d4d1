import Dispatch
import Glibc

extension Mixer {
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
        refreshColour(on: bus, in: &state)
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
        if let source = current.source { applyColour(to: source, options: current.options, in: &state) }
    }

    /// Carries out ``EngineCommand/setBusReverb(_:_:)``; OpenAL refusing it is told as a notice.
    func applyReverb(_ reverb: Reverb?, to bus: Bus, in state: inout EngineState) {
        do throws(AudioEngineError) {
            try efx(&state).setReverb(reverb, bus: bus.index)
        } catch {
            let notice = "the reverb on the \(bus) bus: \(error.description)"
            DispatchQueue.global().async { [notices] in notices.send(notice) }
            return
        }
        state.space.busReverbs[bus] = reverb
        // Set anew (attached, or gone): its rest starts over.
        state.space.restingReverbs.remove(bus)
        state.space.reverbQuietSince[bus] = nil
        refreshColour(on: bus, in: &state)
    }

    /// Sets a source's filter (its own in series with its bus's) and its send to its bus's reverb.
    func applyColour(to source: OpenALSource, options: PlayOptions, in state: inout EngineState) {
        let slots = efx(&state)
        guard slots.isAvailable else {
            if options.filter?.shelf != nil || state.space.busFilters[options.bus]?.shelf != nil
                || state.space.busReverbs[options.bus] != nil
            {
                sayNoColour(&state)
            }
            return
        }
        // Cutoff filters are the engine's own (Colour/CutoffFilter.swift); only shelves go to EFX.
        let busFilter = state.space.busFilters[options.bus]?.shelf
        let filter = options.filter?.shelf?.combined(with: busFilter) ?? busFilter
        let send = state.space.busReverbs[options.bus] == nil ? 0 : options.reverbSend
        if send > 0 { wakeReverb(on: options.bus, in: &state) }
        let clear = filter == nil && send == 0
        if clear, !source.colourSet { return }
        slots.apply(to: source.id, filter: filter, bus: options.bus.index, send: send)
        source.colourSet = !clear
    }

    /// Applies a bus's filter and reverb to every voice on it now.
    func refreshColour(on bus: Bus, in state: inout EngineState) {
        for slot in state.pool.busySlots where state.pool.voices[Int(slot)].options.bus == bus {
            let voice = state.pool.voices[Int(slot)]
            if let source = voice.source { applyColour(to: source, options: voice.options, in: &state) }
        }
        if !efx(&state).isAvailable { sayNoColour(&state) }
    }

    /// The current device's EFX objects, made on first use and again after the device changed.
    func efx(_ state: inout EngineState) -> EFXSlots {
        let device = self.device
        if let slots = state.space.efx, slots.device === device { return slots }
        let slots = EFXSlots(device: device)
        state.space.efx = slots
        state.space.restingReverbs = []
        for (bus, reverb) in state.space.busReverbs {
            try? slots.setReverb(reverb, bus: bus.index)
        }
        return slots
    }

    private func sayNoColour(_ state: inout EngineState) {
        guard !state.space.saidNoColour else { return }
        state.space.saidNoColour = true
        let notice =
            "\(device.name) has no EFX (ALC_EXT_EFX): filters and reverb are accepted and do nothing."
        // Said from a worker: this runs inside the mixer's turn, and a notice handler may wait for
        // the mixer (``AudioEngine/waitForMixer(timeout:)``).
        DispatchQueue.global().async { [notices] in notices.send(notice) }
    }
}
