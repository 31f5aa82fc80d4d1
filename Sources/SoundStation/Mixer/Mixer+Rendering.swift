import Glibc

extension AudioEngine {
    /// Mixes the next `frames` frames of an offline engine and advances its clock.
    ///
    /// The caller is the offline engine's mixing side: the render first carries out every command
    /// written before it (at the render's first frame, or at the frame a command names), and the
    /// queries answer as of its end. A render of zero frames does just that.
    ///
    /// Scheduled starts happen at their exact frame; finished voices are reclaimed every
    /// 256 frames of the render clock, so the same calls always give the same samples. A sound
    /// played between two renders starts at the first frame of the next. Peaks above 0.8 are
    /// rounded off by `SoftClipper` so a loud mix never exceeds ±1.
    /// - Parameter frames: How many frames to mix.
    /// - Returns: Interleaved float samples at the engine's rate and channel count.
    /// - Throws: ``AudioEngineError/notOffline(operation:)`` for other outputs.
    public func render(frames: Int) throws(AudioEngineError) -> PCMAudio {
        guard let offline = driver as? OfflineDriver else { throw .notOffline(operation: "render(frames:)") }
        guard frames >= 0 else {
            throw .invalidArgument(name: "frame count", value: "\(frames)", expected: "0 or more")
        }
        // Not zero-filled first: mixChunks has OpenAL write every frame of it.
        let samples = [Float](unsafeUninitializedCapacity: frames * channels) { buffer, count in
            offline.render(mixer, into: buffer, frames: frames)
            SoftClipper.apply(to: UnsafeMutableBufferPointer(rebasing: buffer[..<(frames * channels)]))
            count = frames * channels
        }
        return PCMAudio(sampleRate: sampleRate, channels: channels, samples: samples)
    }
}

extension Mixer {
    /// Mixes into `buffer` in pieces that end at every quantum boundary and every scheduled start,
    /// doing the engine's housekeeping between pieces. Every one of the `frames * channels` samples is
    /// written (OpenAL renders each piece), so `buffer` may come uninitialised.
    /// - Parameters:
    ///   - buffer: Room for `frames * channels` samples.
    ///   - frames: How many frames to mix.
    ///   - catchingUp: The frames are time that passed before the commands the ring holds were
    ///     written (a quiet engine's driver slept until one woke it): they are carried out after the
    ///     mix, at its last frame, where the wall clock says they came, not at its first. A scheduled
    ///     call due during the mix (its driver woke late for it) still has what it writes carried
    ///     out at its frame, and what the ring held then with it.
    func mixChunks(into buffer: UnsafeMutableBufferPointer<Float>, frames: Int, catchingUp: Bool = false) {
        // Every OpenAL call of the render runs with the context selected once for all of it.
        device.withCurrentContext { mixChunksInContext(into: buffer, frames: frames, catchingUp: catchingUp) }
    }

    /// ``mixChunks(into:frames:catchingUp:)`` with the device's context selected on this thread.
    private func mixChunksInContext(
        into buffer: UnsafeMutableBufferPointer<Float>, frames: Int, catchingUp: Bool
    ) {
        guard let base = buffer.baseAddress else { return }
        var done = 0
        let quiet = !driver.isHeard
        assertOnMixer()
        if !catchingUp { drainCommands() }
        defer { publish(state) }
        while done < frames {
            // What the calls wrote (a scheduled switch, a trigger) is carried out at this frame.
            if runDueCalls() || !catchingUp { drainCommands() }
            var events: [SoundEvent] = []
            let (length, deviceFrames) = withState(collecting: &events) { state, events -> (Int, Int) in
                housekeep(&state, events: &events)
                let now = state.frame
                // Split only where something happens: the next wake-up housekeeping asked for (a
                // start, a call, a refill, a sound's end) and, while anything fades, the fade grid.
                let toWake = state.nextWakeFrame == .max ? Int64.max : max(state.nextWakeFrame - now, 1)
                let grid = fadeGrid
                let toStep = state.fineSteps ? grid - now % grid : Int64.max
                let length = min(Int64(frames - done), toWake, toStep)
                guard quiet else { return (Int(length), Int(length)) }
                let target = Self.quietFrames(at: now + length, rate: sampleRate)
                defer { state.quietFrames = target }
                return (Int(length), Int(target - state.quietFrames))
            }
            hub.send(events)
            // A quiet engine's small mix overwrites the buffer's start: nobody reads it.
            device.render(into: base + (quiet ? 0 : done * channels), frames: deviceFrames)
            state.frame += Int64(length)
            engine.renderedFrame.store(state.frame, ordering: .relaxed)
            done += length
        }
        if catchingUp {
            // The held commands at the mix's end, and what they start begun there, as a device's
            // round does (DeviceDriver), so the next wake-up is known.
            drainCommands()
            withState { state, events in housekeep(&state, events: &events) }
        }
    }

    /// How often housekeeping steps a fade, glide or duck: every ``quantum`` for a heard engine;
    /// eight times less often for silent and remote output, whose gains nobody hears (what ends a
    /// voice, a fade-out's end or a pause's glide, still wakes it at its frame).
    var fadeGrid: Int64 { driver.isHeard ? AudioEngine.quantum : 8 * AudioEngine.quantum }

    /// The small loopback device's frames that cover the render clock up to `frame`, rounded up: the
    /// quiet mix runs ahead of the clock by less than one of its frames, so a sound's end is seen by
    /// the round at its end.
    static func quietFrames(at frame: Int64, rate: Int) -> Int64 {
        (frame * Int64(AudioEngine.quietMixRate) + Int64(rate) - 1) / Int64(rate)
    }

    /// Runs the scheduled calls that are due (``perform(due:at:)``). What they start now is started by
    /// the housekeeping that follows, before the next sample is mixed.
    /// - Returns: Whether any call ran.
    @discardableResult
    func runDueCalls() -> Bool {
        var ran = false
        while true {
            let due = update { $0.takeDueCalls(upTo: currentFrame(&$0)) }
            if due.isEmpty { return ran }
            ran = true
            for (frame, call) in due { perform(due: call, at: frame) }
        }
    }

    /// Starts what is due, refills streams, moves fades and ducking, and reclaims voices whose sound
    /// ended.
    func housekeep(_ state: inout EngineState, events: inout [SoundEvent]) {
        let now = currentFrame(&state)
        if driver.isDevice, !state.deviceLost, !device.isConnected {
            state.deviceLost = true
            events.append(.deviceLost(reason: "\(device.name) disconnected", time: time(ofFrame: now)))
        }
        // OpenAL stopped every source when the device went: reaping them now would end the music.
        if state.deviceLost { return }
        beginDue(state.pool.takeDue(upTo: now), in: &state, at: now, events: &events)
        holdSourcesIfPaused(&state, at: now)
        updateDucking(&state, at: now)
        let tweens = updateTweens(&state, at: now)
        let levels = state.busLevels(at: now)
        let levelsSteady = state.settledLevels == levels
        state.settledLevels = levels
        let tracksPositions = driver.isDevice
        var fading = state.rampsMoving(at: now) || tweens.moving
        // The next round is due by the earliest of: a scheduled start or call, a stream's refill, a
        // one-shot's predicted end, a tween's start or end, and (while anything fades) the next fade
        // step.
        var nextWake = min(state.nextEventFrame ?? .max, tweens.wake ?? .max)
        var finishedAny = false
        // Filtered voices refilled together, their filters in SIMD lanes (Colour/).
        refillFilteredVoices(state, at: now)
        for slot in state.pool.busySlots {
            // Fields are read one by one: copying the whole voice would retain and release its
            // buffer, stream, source and name for every voice on every quantum.
            let index = Int(slot)
            let phase = state.pool.voices[index].phase
            // The source is only looked at, not bound: binding it would retain and release it for
            // every voice on every round, though a plain voice's round never calls it.
            guard phase == .playing || phase == .paused, state.pool.voices[index].source != nil else {
                continue
            }
            let fadeDone = state.pool.voices[index].fade.isDone(at: now)
            if state.pool.voices[index].stopsAfterFade {
                if fadeDone {
                    finish(slot, reason: .stopped, in: &state, at: now, events: &events)
                    finishedAny = true
                    continue
                }
                // The fade-out's end is when the voice stops, on the coarse grid too.
                nextWake = min(nextWake, state.pool.voices[index].fade.end)
            }
            if !fadeDone { fading = true }
            let ended: Bool
            if phase == .paused {
                ended = false
            } else if let feeder = state.pool.voices[index].filtered,
                let source = state.pool.voices[index].source
            {
                ended = !feeder.refill(source: source, settings: filterSettings(slot, in: state, at: now))
                let restarted = feeder.takeUnderruns()
                state.underruns += restarted
                let fed: FeedRing? =
                    if case .fed(let ring) = state.pool.voices[index].content { ring } else { nil }
                fed?.noteHeard(feeder.position(source: source), restarted: restarted)
                let pitch = state.pool.voices[index].options.pitch
                let span = feeder.blockSpan(pitch: pitch, engineRate: sampleRate)
                // Next when a queued block has been heard (a refill then has work), within a block;
                // with none to come (a paused or restarted voice) again in half a block, as before.
                let heard = feeder.nextBlockHeard(after: now, pitch: pitch, engineRate: sampleRate)
                // A fed stream with nothing to hear sleeps until a write wakes it (FeedRing.nextLook).
                let look =
                    fed?.nextLook(now: now, soon: max(span / 2, 1), idle: Int64(sampleRate / 20)) ?? now
                    + max(span / 2, 1)
                nextWake = min(nextWake, heard.map { min($0, now + span) } ?? look)
            } else if let stream = state.pool.voices[index].stream,
                let source = state.pool.voices[index].source
            {
                ended = !stream.refill(source: source)
                state.underruns += stream.takeUnderruns()
                nextWake = min(nextWake, now + Int64(StreamFeeder.chunkFrames / 2))
                // The track's last chunk is queued: look again when it has played.
                if !ended, let left = stream.framesLeft(source: source), let rate = stream.format?.sampleRate
                {
                    let pitch = Double(state.pool.voices[index].options.pitch)
                    let frames = Double(left) * Double(sampleRate) / Double(max(rate, 1)) / pitch
                    nextWake = min(nextWake, now + max(Int64(frames.rounded(.up)), 64))
                }
            } else if now < state.pool.voices[index].endEstimate {
                // Not due to end yet: skip asking OpenAL, and look again at the predicted end (a
                // pitch raised midway only makes this late).
                nextWake = min(nextWake, state.pool.voices[index].endEstimate)
                ended = false
            } else {
                ended = state.pool.voices[index].source?.state == .stopped
                if !ended { nextWake = min(nextWake, now + AudioEngine.quantum) }
            }
            if ended {
                finish(slot, reason: .ended, in: &state, at: now, events: &events)
                finishedAny = true
            } else {
                if state.pool.voices[index].positionRamp != nil, moveVoice(slot, in: &state, at: now) {
                    fading = true
                }
                // A settled gain under the same levels would come out the same: not worked out again.
                if !(levelsSteady && state.pool.voices[index].gainSettled) {
                    applyGain(slot, in: &state, at: now, levels: levels)
                    if fadeDone { state.pool.settleGain(slot) }
                }
                // Only a device can be lost; offline and silent output skip the position query.
                if tracksPositions, state.pool.voices[index].survivesDeviceLoss,
                    let source = state.pool.voices[index].source
                {
                    state.pool.setLastOffset(slot, Self.position(of: state.pool.voices[index], on: source))
                }
            }
        }
        // A reverb nothing has sent to for longer than its tail rests (Colour/).
        if let rest = restReverbs(&state, at: now) { nextWake = min(nextWake, rest) }
        // A voice that ended may end the ducking: start its release now rather than at the next round.
        if finishedAny {
            updateDucking(&state, at: now)
            if state.rampsMoving(at: now) { fading = true }
        }
        if state.gainsMoved {
            if driver.isHeard { nextWake = min(nextWake, now + AudioEngine.quantum) }
            state.gainsMoved = false
        }
        // A pause holds the sources where they are once its glide ends.
        if state.isPaused, !state.sourcesHeld { nextWake = min(nextWake, state.pauseLevel.end) }
        state.fineSteps = fading
        state.nextWakeFrame = fading ? min(nextWake, now + fadeGrid) : nextWake
    }

    /// Dips the music while a voice note (or, if asked, a loud effect) plays, or a voice that asks
    /// for its own dip (``PlayOptions/duckMusic``): the deepest dip wins.
    private func updateDucking(_ state: inout EngineState, at frame: Int64) {
        let ducking = state.ducking
        var target: Float = 1
        for slot in state.pool.busySlots where state.pool.voices[Int(slot)].phase == .playing {
            let options = state.pool.voices[Int(slot)].options
            if options.bus == .voice
                || (ducking.underLoudEffects && options.bus == .effects
                    && options.volume >= ducking.loudEffectVolume)
            {
                target = min(target, ducking.level)
            }
            if options.duckMusic < 0 { target = min(target, Ducking.gain(ofDecibels: options.duckMusic)) }
        }
        let active = target < 1
        guard state.duckLevel.to != target else { return }
        let seconds = (active ? ducking.attack : ducking.release).inSeconds
        state.duckLevel = state.duckLevel.retargeted(
            to: target, at: frame, over: Int64(seconds * Double(sampleRate)))
    }
}
