extension AudioEngine {
    /// Mixes the next `frames` frames of an offline engine and advances its clock.
    ///
    /// Scheduled starts happen at their exact frame; finished voices are reclaimed every
    /// ``quantum`` frames of the render clock, so the same calls always give the same samples.
    /// - Parameter frames: How many frames to mix.
    /// - Returns: Interleaved float samples at the engine's rate and channel count.
    /// - Throws: ``AudioEngineError/notOffline(operation:)`` for other outputs.
    public func render(frames: Int) throws(AudioEngineError) -> PCMAudio {
        guard isOffline else { throw .notOffline(operation: "render(frames:)") }
        guard frames >= 0 else {
            throw .invalidArgument(name: "frame count", value: "\(frames)", expected: "0 or more")
        }
        // The first render mixes the limiter's lookahead too and drops it, so a sound started at
        // mix frame F is heard at frame F of what the caller receives.
        let skip = state.withLock { state -> Int in
            defer { state.primed = true }
            return state.primed ? 0 : Int(latency)
        }
        var samples = [Float](repeating: 0, count: (frames + skip) * channels)
        samples.withUnsafeMutableBufferPointer { mixChunks(into: $0, frames: frames + skip) }
        if skip > 0 { samples.removeFirst(skip * channels) }
        return PCMAudio(sampleRate: sampleRate, channels: channels, samples: samples)
    }

    /// Finds how many frames the device delays a sound (the limiter's lookahead) by playing a click on
    /// a throwaway source, then mixes silence until the click has left the limiter.
    static func measureLatency(_ device: OpenALDevice) throws(AudioEngineError) -> Int64 {
        let window = Int(quantum) * 4
        var click = [Float](repeating: 0, count: window)
        click[0] = 0.5
        let buffer = try OpenALBuffer(
            device: device, audio: PCMAudio(sampleRate: device.sampleRate, channels: 1, samples: click))
        let source = try OpenALSource(device: device)
        try source.prepare(buffer: buffer, channels: 1, gain: 1, pitch: 1, pan: 0, loop: false)
        try source.play()
        var mix = [Float](repeating: 0, count: window * device.channels)
        mix.withUnsafeMutableBufferPointer { device.render(into: $0.baseAddress!, frames: window) }
        let first = mix.firstIndex { $0 != 0 }.map { $0 / device.channels } ?? 0
        source.stop()
        for _ in 0..<8 {
            mix.withUnsafeMutableBufferPointer { device.render(into: $0.baseAddress!, frames: window) }
        }
        return Int64(first)
    }

    /// Mixes into `buffer` in pieces that end at every quantum boundary and every scheduled start,
    /// doing the engine's housekeeping between pieces.
    func mixChunks(into buffer: UnsafeMutableBufferPointer<Float>, frames: Int) {
        guard let base = buffer.baseAddress else { return }
        var done = 0
        while done < frames {
            var events: [SoundEvent] = []
            let length = state.withLock { state -> Int in
                housekeep(&state, events: &events)
                let now = state.frame
                let toBoundary = Self.quantum - now % Self.quantum
                let toStart = state.pool.nextScheduledFrame.map { $0 - now } ?? Int64.max
                return Int(min(Int64(frames - done), toBoundary, max(toStart, 1)))
            }
            hub.send(events)
            device.render(into: base + done * channels, frames: length)
            state.withLock { $0.frame += Int64(length) }
            done += length
        }
    }

    /// Starts what is due and reclaims voices whose sound ended.
    func housekeep(_ state: inout EngineState, events: inout [SoundEvent]) {
        let now = currentFrame(&state)
        for slot in state.pool.takeDue(upTo: now) {
            start(slot, in: &state, at: now, events: &events)
        }
        for slot in state.pool.busySlots {
            let voice = state.pool.voices[Int(slot)]
            guard voice.phase == .playing, let source = voice.source, source.state == .stopped else {
                continue
            }
            state.pool.release(slot)
            if let buffer = voice.buffer {
                let handle = VoiceHandle(slot: slot, generation: voice.generation)
                events.append(.finished(handle, sound: buffer.name, reason: .ended, time: seconds(now)))
            }
        }
    }
}
