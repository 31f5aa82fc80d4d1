extension Mixer {
    /// Stops a busy voice and frees it, with a finished event.
    ///
    /// A voice that ends before it began (stolen or stopped within the round it was asked for, or
    /// while waiting for its start frame) sends its `started` first, at the same frame: every
    /// accepted trigger is answered by exactly one of `started`, `refused` or `coalesced`, and every
    /// `started` by one `finished`.
    func finish(
        _ slot: Int32, reason: SoundEvent.FinishReason, in state: inout EngineState, at frame: Int64,
        events: inout [SoundEvent]
    ) {
        // Fields are read one by one: copying the whole voice retains and releases all it holds.
        guard state.pool.voices[Int(slot)].isBusy else { return }
        // A voice still waiting for its frame has nothing on its source (a slot's source is stopped
        // whenever the slot is freed): no OpenAL call, which was a third of a stolen trigger's cost.
        let began: Bool = if case .scheduled = state.pool.voices[Int(slot)].phase { false } else { true }
        if began { state.pool.voices[Int(slot)].source?.stop() }
        let handle = state.pool.handle(slot)
        if hub.isListening {
            let name = state.pool.voices[Int(slot)].name
            if !state.pool.voices[Int(slot)].announced {
                events.append(.started(handle, sound: name, time: time(ofFrame: frame)))
            }
            events.append(.finished(handle, sound: name, reason: reason, time: time(ofFrame: frame)))
        }
        state.pool.release(slot)
    }

    /// Starts a fade to silence that ends the voice.
    func fadeOut(_ slot: Int32, over seconds: Double, in state: inout EngineState, at frame: Int64) {
        let length = Int64(seconds * Double(sampleRate))
        state.pool.update(slot) {
            $0.fade = $0.fade.retargeted(to: 0, at: frame, over: length, curve: .equalPowerOut)
            $0.stopsAfterFade = true
        }
    }

    /// Sends the voice's current gain to OpenAL when it changed.
    /// - Parameter levels: The bus levels at `frame`, when the caller has them already.
    func applyGain(_ slot: Int32, in state: inout EngineState, at frame: Int64, levels: BusLevels? = nil) {
        let index = Int(slot)
        let phase = state.pool.voices[index].phase
        guard phase == .playing || phase == .paused else { return }
        // Only the fields the gain depends on are read, so no reference in the voice is retained.
        let options = state.pool.voices[index].options
        let fade = state.pool.voices[index].fade
        let gain =
            if let levels {
                state.gain(options: options, fade: fade, at: frame, levels: levels)
            } else {
                state.gain(options: options, fade: fade, at: frame)
            }
        guard gain != state.pool.voices[index].appliedGain else { return }
        state.pool.voices[index].source?.setGain(gain)
        state.gainsMoved = true
        state.pool.update(slot) { $0.appliedGain = gain }
    }

    /// When a one-shot started at `frame` should end at its pitch, in render-clock frames.
    static func endEstimate(of voice: Voice, from frame: Int64, engineRate: Int) -> Int64 {
        guard !voice.options.loop, case .buffer(let buffer) = voice.content else { return .max }
        let frames = max(buffer.frameCount - voice.startOffset, 0) + voice.options.repeats * buffer.frameCount
        let remaining = Double(frames) / Double(buffer.sampleRate)
        return frame + Int64(remaining / Double(max(voice.options.pitch, 0.01)) * Double(engineRate))
    }
}
