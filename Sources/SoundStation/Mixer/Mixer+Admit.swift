extension Mixer {
    /// Admits `request` by its limit and the pool, claims a voice and schedules it: the housekeeping
    /// that follows in the same round begins it (sets up its source, primes a stream), at its frame,
    /// whatever the output.
    /// - Returns: False when the sound was refused (a `refused` event says so).
    func startVoice(
        _ request: VoiceRequest, ticket: UInt64, atFrame requested: Int64?, in state: inout EngineState,
        events: inout [SoundEvent]
    ) -> Bool {
        let now = currentFrame(&state)
        let frame = requested.map { max(now, $0) } ?? now
        if let limit = request.limit {
            switch admit(request.sound, limit: limit, at: frame, in: &state, events: &events) {
            case .coalesced(let slot):
                state.pool.alias(ticket, to: slot)
                events.append(
                    .coalesced(
                        VoiceHandle(ticket: ticket), sound: request.name, into: state.pool.handle(slot),
                        time: time(ofFrame: now)))
                return true
            case .refused:
                events.append(
                    .refused(VoiceHandle(ticket: ticket), sound: request.name, time: time(ofFrame: now)))
                return false
            case .admitted: break
            }
        }
        guard let claimed = try? state.pool.claim(priority: request.options.priority, device: device) else {
            events.append(
                .refused(VoiceHandle(ticket: ticket), sound: request.name, time: time(ofFrame: now)))
            return false
        }
        if let stolen = claimed.stolen {
            stolen.source?.stop()
            let old = VoiceHandle(ticket: stolen.ticket)
            // Stolen before it began: its start is told first, as ``finish(_:reason:in:at:events:)`` does.
            if !stolen.announced {
                events.append(.started(old, sound: stolen.name, time: time(ofFrame: now)))
            }
            events.append(.finished(old, sound: stolen.name, reason: .stolen, time: time(ofFrame: now)))
        }
        let phase: Voice.Phase = .scheduled(frame: frame)
        // A stream opens and decodes its first chunks on the streaming worker from now on.
        if case .stream(let stream) = request.content { stream.start(from: request.startOffset) }
        _ = state.pool.occupy(claimed.slot, request: request, ticket: ticket, phase: phase, startFrame: frame)
        if request.fadeIn > 0 {
            let length = Int64(request.fadeIn * Double(sampleRate))
            state.pool.update(claimed.slot) {
                $0.fade = GainRamp(from: 0, to: 1, start: frame, end: frame + length, curve: .equalPowerIn)
            }
        }
        return true
    }

    private enum Admission {
        case admitted, refused
        case coalesced(Int32)
    }

    /// Applies a sound's instance limit: folds a near-simultaneous repeat into the last start, or
    /// makes room by stealing one of its own instances, or refuses.
    private func admit(
        _ sound: SoundID, limit: InstanceLimit, at frame: Int64, in state: inout EngineState,
        events: inout [SoundEvent]
    ) -> Admission {
        // The victim is chosen in a scope of its own: an array of the instances still held when the
        // steal frees one would be copied by it.
        let victim: Int32?
        do {
            let slots = state.pool.instances(of: sound)
            if limit.coalesceFrames > 0, let last = slots.last {
                if abs(frame - state.pool.voices[Int(last)].startFrame) <= limit.coalesceFrames {
                    return .coalesced(last)
                }
            }
            guard slots.count >= limit.maxInstances else { return .admitted }
            switch limit.steal {
            case .refuse: return .refused
            case .oldest: victim = slots.first
            case .quietest:
                victim = slots.min { a, b in
                    let (x, y) = (state.pool.voices[Int(a)], state.pool.voices[Int(b)])
                    return x.options.volume * x.fade.value(at: frame) < y.options.volume
                        * y.fade.value(at: frame)
                }
            }
        }
        if let victim { finish(victim, reason: .stolen, in: &state, at: state.frame, events: &events) }
        return .admitted
    }
}
