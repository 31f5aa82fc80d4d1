extension Mixer {
    /// Puts a bus's reverb to rest once nothing has sent to it for longer than its tail, and wakes it
    /// when a voice on the bus plays again; returns the frame the next rest is due, if one is coming.
    ///
    /// OpenAL Soft runs an attached reverb on every mixed frame whether or not anything sends to it:
    /// about eight times the cost of mixing 16 voices. A game that sets a reverb on its
    /// effects bus would pay that through every quiet stretch. At rest the bus's effect slot holds no
    /// effect, which OpenAL skips; the tail has decayed by then (``Reverb/restFrames(rate:)``), so
    /// nothing audible is cut, and a voice waking it starts a fresh reverb, as it would hear anyway.
    func restReverbs(_ state: inout EngineState, at now: Int64) -> Int64? {
        guard !state.space.busReverbs.isEmpty else { return nil }
        var sending: UInt8 = 0
        for slot in state.pool.busySlots {
            let index = Int(slot)
            guard state.pool.voices[index].phase == .playing, state.pool.voices[index].options.reverbSend > 0
            else { continue }
            sending |= 1 << state.pool.voices[index].options.bus.index
        }
        var due: Int64?
        for (bus, reverb) in state.space.busReverbs {
            if sending & (1 << bus.index) != 0 {
                state.space.reverbQuietSince[bus] = nil
                wakeReverb(on: bus, in: &state)
                continue
            }
            guard !state.space.restingReverbs.contains(bus) else { continue }
            let since = state.space.reverbQuietSince[bus] ?? now
            state.space.reverbQuietSince[bus] = since
            let end = since + reverb.restFrames(rate: sampleRate)
            if now < end {
                due = min(due ?? .max, end)
            } else if (try? efx(&state).setReverb(nil, bus: bus.index)) != nil {
                state.space.restingReverbs.insert(bus)
                state.space.reverbQuietSince[bus] = nil
            }
        }
        return due
    }

    /// Attaches `bus`'s reverb again if it is at rest, before a voice sending to it is heard.
    func wakeReverb(on bus: Bus, in state: inout EngineState) {
        guard state.space.restingReverbs.contains(bus), let reverb = state.space.busReverbs[bus] else {
            return
        }
        state.space.restingReverbs.remove(bus)
        try? efx(&state).setReverb(reverb, bus: bus.index)
    }
}

extension Reverb {
    /// Render-clock frames from the last send to when the reverb may rest: its reflections' and late
    /// reverb's delays, then one and a half times its longest decay (to 90 dB below, past hearing).
    func restFrames(rate: Int) -> Int64 {
        let decay = Double(decayTime) * Double(max(decayHFRatio, 1))
        let seconds = Double(reflectionsDelay) + Double(lateReverbDelay) + 1.5 * decay
        return Int64((seconds * Double(rate)).rounded(.up))
    }
}
