/// Volume, pitch and pan of a voice, and a bus's volume, moving along a ``Tween``.
///
/// Offline the curve is followed to the sample: at each quantum of the render clock the value the
/// curve reaches at the quantum's end is handed to OpenAL, which glides the gain linearly across the
/// quantum, so the rendered gain is the curve drawn through points 256 frames apart (within 1e-5 of
/// it for these easings). Pitch, which OpenAL does not glide, moves in steps of one quantum, each at
/// the curve's value in the middle of its step.
extension AudioEngine {
    /// Glides a playing voice's volume (before fades and bus gains) along a tween; a stale handle
    /// does nothing. A new tween of the same voice's volume replaces the old.
    /// - Parameters:
    ///   - volume: Linear gain, 0 or more.
    ///   - voice: The voice.
    ///   - tween: Duration, easing and start.
    /// - Throws: ``TweenError`` for a negative volume or duration, or a musical start with no point.
    public func setVolume(_ volume: Float, for voice: VoiceHandle, tween: Tween) throws(TweenError) {
        try Self.check(volume, "volume", in: PlayOptions.volumeRange, "a gain of 0 or more")
        submit(.setVoice(voice, .volume, volume, tween: try TweenSpec(tween)))
    }

    /// Glides a playing voice's pitch along a tween (in steps of one quantum).
    /// - Parameters:
    ///   - pitch: Playback speed, 0.01...8.
    ///   - voice: The voice.
    ///   - tween: Duration, easing and start.
    /// - Throws: ``TweenError`` for a pitch out of range or a bad duration or start.
    public func setPitch(_ pitch: Float, for voice: VoiceHandle, tween: Tween) throws(TweenError) {
        try Self.check(pitch, "pitch", in: PlayOptions.pitchRange, "a speed, 1 as recorded")
        submit(.setVoice(voice, .pitch, pitch, tween: try TweenSpec(tween)))
    }

    /// Glides a playing voice's pan along a tween; a positioned voice stops following its position.
    /// - Parameters:
    ///   - pan: -1 left ... 1 right.
    ///   - voice: The voice.
    ///   - tween: Duration, easing and start.
    /// - Throws: ``TweenError`` for a pan outside -1...1 or a bad duration or start.
    public func setPan(_ pan: Float, for voice: VoiceHandle, tween: Tween) throws(TweenError) {
        try Self.check(pan, "pan", in: PlayOptions.panRange, "-1 (left) to 1 (right)")
        submit(.setVoice(voice, .pan, pan, tween: try TweenSpec(tween)))
    }

    /// Glides a bus's volume along a tween.
    /// - Parameters:
    ///   - volume: Linear gain, 0 or more.
    ///   - bus: The bus; ``Bus/master`` scales all of them.
    ///   - tween: Duration, easing and start.
    /// - Throws: ``TweenError`` for a negative volume or a bad duration or start.
    public func setVolume(_ volume: Float, for bus: Bus, tween: Tween) throws(TweenError) {
        try Self.check(volume, "volume", in: PlayOptions.volumeRange, "a gain of 0 or more")
        let spec = try TweenSpec(tween)
        settings.withLock { $0.busVolumes[bus] = volume }
        submit(.setBusVolume(bus, volume, tween: spec))
    }

    /// Throws unless `value` lies in `range`: a tween's target follows the same ranges as the call
    /// without one.
    private static func check(
        _ value: Float, _ name: String, in range: ClosedRange<Float>, _ expected: String
    ) throws(TweenError) {
        guard range.contains(value) else {
            throw .invalidValue(
                name: name, value: Double(value),
                expected: "\(expected), \(range.lowerBound)...\(range.upperBound)")
        }
    }
}

extension Mixer {
    /// Carries out a command's tween: it replaces any tween of the same target, and starts at its
    /// start time (the frame the command is carried out at when it has none).
    func addTween(
        _ target: ParameterTween.Target, to value: Float, _ tween: TweenSpec, in state: inout EngineState
    ) {
        let length = frame(for: tween.duration)
        let start = tween.start.map(frame(for:)) ?? currentFrame(&state)
        state.tweens.removeAll { $0.target == target }
        state.tweens.append(
            ParameterTween(target: target, to: value, start: start, end: start + length, easing: tween.easing)
        )
        state.nextWakeFrame = min(state.nextWakeFrame, start)
        state.fineSteps = true
    }

    /// Moves every tween that has begun to its value at the end of this quantum (pitch: the middle)
    /// and drops those that are done.
    /// - Returns: Whether any is moving, and the frame the next one that waits begins or the next
    ///   one ends between quantum boundaries, for housekeeping to wake at.
    func updateTweens(_ state: inout EngineState, at now: Int64) -> (moving: Bool, wake: Int64?) {
        guard !state.tweens.isEmpty else { return (false, nil) }
        var moving = false
        var wake: Int64?
        let boundary = now + Self.quantum - now % Self.quantum
        var index = 0
        while index < state.tweens.count {
            var tween = state.tweens[index]
            if tween.start > now {
                wake = min(wake ?? .max, tween.start)
                index += 1
                continue
            }
            if tween.from == nil {
                guard let current = value(of: tween.target, in: state) else {
                    state.tweens.remove(at: index)
                    continue
                }
                tween.from = current
                state.tweens[index] = tween
            }
            let done = now >= tween.end
            let ahead = min(boundary, tween.end)
            if !done, tween.end < boundary { wake = min(wake ?? .max, tween.end) }
            if case .pitch = tween.target {
                apply(tween.target, tween.value(at: done ? now : (now + ahead) / 2), in: &state, at: now)
            } else {
                apply(tween.target, tween.value(at: ahead), in: &state, at: now)
            }
            if done {
                state.tweens.remove(at: index)
            } else {
                moving = true
                index += 1
            }
        }
        return (moving, wake)
    }

    private func value(of target: ParameterTween.Target, in state: EngineState) -> Float? {
        switch target {
        case .volume(let voice): state.pool.voice(voice)?.options.volume
        case .pitch(let voice): state.pool.voice(voice)?.options.pitch
        case .pan(let voice): state.pool.voice(voice)?.options.pan
        case .bus(let bus): state.busVolumes[bus]
        }
    }

    private func apply(
        _ target: ParameterTween.Target, _ value: Float, in state: inout EngineState, at now: Int64
    ) {
        switch target {
        case .volume(let voice):
            guard let slot = state.pool.slot(of: voice) else { return }
            state.pool.update(slot) { $0.options.volume = value }
        case .pitch(let voice):
            guard let slot = state.pool.slot(of: voice) else { return }
            state.pool.update(slot) { $0.options.pitch = value }
            state.pool.voices[Int(slot)].source?.setPitch(value)
        case .pan(let voice):
            guard let slot = state.pool.slot(of: voice) else { return }
            applyPan(value, to: slot, in: &state, at: now)
        case .bus(let bus):
            state.busVolumes[bus] = value
            state.busLevels[bus] = .constant(state.mutedBuses[bus] ? 0 : value)
        }
    }
}
