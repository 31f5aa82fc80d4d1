extension AudioEngine {
    /// Mixes the next `frames` frames of an offline engine and advances its clock.
    ///
    /// Scheduled starts happen at their exact frame; finished voices are reclaimed every
    /// 256 frames of the render clock, so the same calls always give the same samples. A sound
    /// played between two renders starts at the first frame of the next. Peaks above 0.8 are
    /// rounded off by ``SoftClipper`` so a loud mix never exceeds ±1.
    /// - Parameter frames: How many frames to mix.
    /// - Returns: Interleaved float samples at the engine's rate and channel count.
    /// - Throws: ``AudioEngineError/notOffline(operation:)`` for other outputs.
    public func render(frames: Int) throws(AudioEngineError) -> PCMAudio {
        guard isOffline else { throw .notOffline(operation: "render(frames:)") }
        guard frames >= 0 else {
            throw .invalidArgument(name: "frame count", value: "\(frames)", expected: "0 or more")
        }
        var samples = [Float](repeating: 0, count: frames * channels)
        samples.withUnsafeMutableBufferPointer { mixChunks(into: $0, frames: frames) }
        SoftClipper.apply(to: &samples)
        return PCMAudio(sampleRate: sampleRate, channels: channels, samples: samples)
    }

    /// Mixes into `buffer` in pieces that end at every quantum boundary and every scheduled start,
    /// doing the engine's housekeeping between pieces.
    func mixChunks(into buffer: UnsafeMutableBufferPointer<Float>, frames: Int) {
        guard let base = buffer.baseAddress else { return }
        var done = 0
        while done < frames {
            runDueCalls()
            var events: [SoundEvent] = []
            let length = state.withLock { state -> Int in
                housekeep(&state, events: &events)
                let now = state.frame
                let toBoundary = Self.quantum - now % Self.quantum
                let toEvent = state.nextEventFrame.map { $0 - now } ?? Int64.max
                return Int(min(Int64(frames - done), toBoundary, max(toEvent, 1)))
            }
            hub.send(events)
            device.render(into: base + done * channels, frames: length)
            state.withLock { $0.frame += Int64(length) }
            done += length
        }
    }

    /// Runs the scheduled closures that are due, outside the lock so they may call the engine; what
    /// they start now is started by the housekeeping that follows, before the next sample is mixed.
    func runDueCalls() {
        while true {
            let due = state.withLock { $0.takeDueCalls(upTo: currentFrame(&$0)) }
            if due.isEmpty { return }
            for call in due { call() }
        }
    }

    /// Starts what is due, refills streams, moves fades and ducking, and reclaims voices whose sound
    /// ended.
    func housekeep(_ state: inout EngineState, events: inout [SoundEvent]) {
        let now = currentFrame(&state)
        if case .device = output, !state.deviceLost, !device.isConnected {
            state.deviceLost = true
            events.append(.deviceLost(reason: "\(device.name) disconnected", time: seconds(now)))
        }
        // OpenAL stopped every source when the device went: reaping them now would end the music.
        if state.deviceLost { return }
        for slot in state.pool.takeDue(upTo: now) {
            begin(slot, in: &state, at: now, events: &events)
        }
        updateDucking(&state, at: now)
        for slot in state.pool.busySlots {
            let voice = state.pool.voices[Int(slot)]
            guard voice.phase == .playing || voice.phase == .paused, let source = voice.source else {
                continue
            }
            if voice.stopsAfterFade, voice.fade.isDone(at: now) {
                finish(slot, reason: .stopped, in: &state, at: now, events: &events)
                continue
            }
            let ended: Bool
            if voice.phase == .paused {
                ended = false
            } else if let stream = voice.stream {
                ended = !stream.refill(source: source)
                state.underruns += stream.takeUnderruns()
            } else {
                ended = source.state == .stopped
            }
            if ended {
                finish(slot, reason: .ended, in: &state, at: now, events: &events)
            } else {
                applyGain(slot, in: &state, at: now)
                if voice.survivesDeviceLoss {
                    let offset = voice.stream?.position(source: source) ?? source.sampleOffset
                    state.pool.update(slot) { $0.lastOffset = offset }
                }
            }
        }
    }

    /// Dips the music while a voice note (or, if asked, a loud effect) plays.
    private func updateDucking(_ state: inout EngineState, at frame: Int64) {
        let ducking = state.ducking
        let active = state.pool.busySlots.contains { slot in
            let voice = state.pool.voices[Int(slot)]
            guard voice.phase == .playing else { return false }
            return voice.options.bus == .voice
                || (ducking.underLoudEffects && voice.options.bus == .effects
                    && voice.options.volume >= ducking.loudEffectVolume)
        }
        let target: Float = active ? ducking.level : 1
        guard state.duckLevel.to != target else { return }
        let seconds = active ? ducking.attack : ducking.release
        state.duckLevel = state.duckLevel.retargeted(
            to: target, at: frame, over: Int64(seconds * Double(sampleRate)))
    }
}
