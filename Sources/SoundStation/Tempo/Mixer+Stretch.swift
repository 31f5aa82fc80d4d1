/// Voices played through a time-stretcher (``StretchGroup``): music at a speed other than 1, and
/// voices with a pitch shift.
extension Mixer {
    /// Gives every member of the stretchers of `voices` its input before any of them begins, so the
    /// first to begin finds the whole group there (a voice refused leaves a silent member).
    func prepareStretch(_ voices: [VoiceHandle], in state: inout EngineState) {
        var groups: [ObjectIdentifier: StretchGroup] = [:]
        for handle in voices {
            guard let slot = state.pool.slot(of: handle), let tap = state.pool.voices[Int(slot)].stretch
            else { continue }
            groups[ObjectIdentifier(tap.group)] = tap.group
            if !tap.group.hasInput(tap.index),
                let blocks = Self.stretchInput(state.pool.voices[Int(slot)])
            {
                tap.group.attach(tap.index, blocks)
            }
        }
        for group in groups.values { group.fillMissing(sampleRate: sampleRate) }
    }

    /// Where a voice's unstretched samples come from, from its start offset.
    private static func stretchInput(_ voice: Voice) -> (any PCMBlocks)? {
        switch voice.content {
        case .buffer, .stream: voice.content?.blocks(from: voice.startOffset, options: voice.options)
        case .fed, nil: nil
        }
    }

    /// Moves `voices` (a track and its stems) onto `group`, each from where it is: one that plays its
    /// sound directly goes onto the filtered path through the stretcher without a gap; one not begun
    /// yet begins through it. A voice already on the filtered path for a cutoff filter keeps playing
    /// unstretched (it gets the speed at its next start).
    func engageStretch(_ voices: [VoiceHandle], group: StretchGroup, in state: inout EngineState) {
        let now = engine.frameNow
        var begun: [(slot: Int32, source: OpenALSource, offset: Int, playing: Bool)] = []
        for (index, handle) in voices.enumerated() {
            guard let slot = state.pool.slot(of: handle) else { continue }
            let voice = state.pool.voices[Int(slot)]
            guard voice.filtered == nil, voice.stretch == nil else { continue }
            let tap = StretchTap(group: group, index: index)
            state.pool.update(slot) { $0.stretch = tap }
            guard voice.phase == .playing || voice.phase == .paused, let source = voice.source else {
                if let blocks = Self.stretchInput(voice) { group.attach(index, blocks) }
                continue
            }
            let offset: Int
            switch voice.content {
            case .stream(let stream):
                offset = stream.position(source: source)
                stream.handOver(source: source)
                group.attach(index, stream)
            case .buffer(let buffer):
                guard source.state != .stopped else { continue }
                offset = source.sampleOffset
                group.attach(
                    index,
                    MemoryBlocks(
                        buffer, from: offset, loops: voice.options.loop, repeats: voice.options.repeats))
            case .fed, nil:
                continue
            }
            source.clearForQueue()
            begun.append((slot, source, offset, voice.phase == .playing))
        }
        group.fillMissing(sampleRate: sampleRate)
        // Every input is attached before the first feeder asks the group for samples.
        for voice in begun {
            do throws(AudioEngineError) {
                try startFiltered(
                    voice.slot, source: voice.source, from: voice.offset, in: &state, at: now)
                if voice.playing { try voice.source.play() }
            } catch {
                // Housekeeping finds the source stopped and ends the voice.
                continue
            }
        }
        state.nextWakeFrame = min(state.nextWakeFrame, now)
        ring.wake()
    }

    /// Engine frames from now until a stretched voice plays what its stretcher makes next: its queue
    /// and what the stretcher holds for it. `nil` for a voice not on a stretcher.
    func stretchLatency(of handle: VoiceHandle, in state: EngineState) -> Int64? {
        guard let slot = state.pool.slot(of: handle), let tap = state.pool.voices[Int(slot)].stretch
        else { return nil }
        let voice = state.pool.voices[Int(slot)]
        guard let feeder = voice.filtered, let source = voice.source else { return 0 }
        let frames = feeder.queuedAhead(source: source) + tap.group.buffered(tap.index)
        return Int64((Double(frames) * Double(sampleRate) / Double(tap.group.sampleRate)).rounded())
    }
}
