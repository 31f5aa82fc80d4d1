extension AudioEngine {
    /// How late a change of cutoff filter is heard on a device: the filtered voices' queue, 4 blocks
    /// of 1024 frames (85 ms at 48 kHz). Voices without a cutoff filter are not delayed. Offline, the
    /// delay is the same number of render-clock frames, the same on every run.
    public var filterLatency: Duration {
        .seconds(Double(FilteredFeeder.blockFrames * FilteredFeeder.bufferCount) / Double(sampleRate))
    }

    /// Frames a filtered voice has queued beyond what is heard (0 for a voice playing its buffer
    /// directly), for `make bench`; `nil` for a stale handle or a stream played directly.
    /// - Parameter voice: The voice.
    /// - Returns: The frames, at the sound's rate.
    /// Holds the mixer, so it waits for a round in progress.
    @_spi(Benchmarks) public func queuedAhead(of voice: VoiceHandle) -> Int? {
        mixer.run {
            mixer.update { state in
                guard let current = state.pool.voice(voice), let source = current.source else { return nil }
                if let feeder = current.filtered { return feeder.queuedAhead(source: source) }
                if case .stream = current.content { return nil }
                return 0
            }
        }
    }
}

extension Mixer {
    /// Render-clock frames of ``AudioEngine/filterLatency``: a glide starts this far ahead, so the
    /// blocks already queued do not skip its beginning.
    var filterLatencyFrames: Int64 { Int64(FilteredFeeder.blockFrames * FilteredFeeder.bufferCount) }

    /// Whether `voice` needs the filtered path at `frame`: it or its bus has a cutoff filter.
    func needsCutoff(_ voice: Voice, in state: EngineState, at frame: Int64) -> Bool {
        if voice.stretch != nil { return true }
        if let ramp = voice.cutoffRamp, !ramp.isOff(from: frame) { return true }
        if let ramp = state.space.busCutoffs[voice.options.bus], !ramp.isOff(from: frame) { return true }
        return false
    }

    /// Refills every playing filtered voice's queue in one pass, their biquads side by side
    /// (``FilteredFeeder/refillTogether(_:)``); housekeeping's per-voice refill that follows finds the
    /// queues full and only settles them. Paused voices wait, as there.
    func refillFilteredVoices(_ state: EngineState, at now: Int64) {
        var voices: [FilteredFeeder.Refill] = []
        // Each bus's cutoff looked up once, not once per voice (a bus's hash is its name's).
        var busRamps: [(bus: Bus, ramp: CutoffRamp?)] = []
        for slot in state.pool.busySlots {
            let index = Int(slot)
            guard state.pool.voices[index].phase == .playing, let feeder = state.pool.voices[index].filtered,
                let source = state.pool.voices[index].source
            else { continue }
            let bus = state.pool.voices[index].options.bus
            let busRamp: CutoffRamp?
            if let known = busRamps.first(where: { $0.bus == bus }) {
                busRamp = known.ramp
            } else {
                busRamp = state.space.busCutoffs[bus]
                busRamps.append((bus, busRamp))
            }
            let settings = FilteredFeeder.Settings(
                own: state.pool.voices[index].cutoffRamp, bus: busRamp,
                pitch: state.pool.voices[index].options.pitch, engineRate: sampleRate, now: now)
            voices.append(FilteredFeeder.Refill(feeder: feeder, source: source, settings: settings))
        }
        if !voices.isEmpty { FilteredFeeder.refillTogether(voices) }
    }

    /// What a filtered voice's next blocks are filtered with.
    func filterSettings(_ slot: Int32, in state: EngineState, at frame: Int64) -> FilteredFeeder.Settings {
        let index = Int(slot)
        return FilteredFeeder.Settings(
            own: state.pool.voices[index].cutoffRamp,
            bus: state.space.busCutoffs[state.pool.voices[index].options.bus],
            pitch: state.pool.voices[index].options.pitch, engineRate: sampleRate, now: frame)
    }

    /// Gives the voice in `slot` a feeder that reads its sound from `offset` and queues the first
    /// filtered blocks on `source` (stopped and empty); the caller plays it.
    /// - Parameter engaged: The voice was playing unfiltered until now, so a filter coming on fades in
    ///   for it; a voice beginning here is filtered from its first sample.
    func startFiltered(
        _ slot: Int32, source: OpenALSource, from offset: Int, in state: inout EngineState, at frame: Int64,
        engaged: Bool = false
    ) throws(AudioEngineError) {
        let index = Int(slot)
        guard let content = state.pool.voices[index].content else { return }
        var blocks = content.blocks(from: offset, options: state.pool.voices[index].options)
        var (blockFrames, bufferCount) = (FilteredFeeder.blockFrames, FilteredFeeder.bufferCount)
        if case .fed = content {
            blockFrames = FilteredFeeder.fedBlockFrames
            bufferCount = fedBufferCount(rate: blocks.sampleRate)
        }
        if let tap = state.pool.voices[index].stretch {
            // Attached once: a seek starts the group's members again together (``engageStretch``).
            if !tap.group.hasInput(tap.index) { tap.group.attach(tap.index, blocks) }
            blocks = StretchedBlocks(tap.group, index: tap.index)
        }
        let feeder = FilteredFeeder(
            blocks: blocks, from: frame, startOffset: offset, heardSince: engaged ? .min : frame,
            blockFrames: blockFrames, bufferCount: bufferCount)
        try feeder.prime(source: source, settings: filterSettings(slot, in: state, at: frame))
        state.pool.update(slot) {
            $0.filtered = feeder
            $0.endEstimate = .max
        }
    }

    /// Blocks a fed stream's voice may have queued on its source: enough for all the device may mix
    /// at once. OpenAL Soft mixes what the sound server asks for in one go, and after a stall (a
    /// busy machine) the server asks for the whole device buffer, three periods (OpenAL Soft's
    /// default), at once: frames still in the feed's queue then are no help, and the source runs dry
    /// with them waiting. A block holds only what was written since the round before, so blocks are
    /// counted half full. At least ``FilteredFeeder/fedBufferCount``; offline, exactly that, so
    /// renders do not depend on a device.
    /// - Parameter rate: The feed's frames per second.
    func fedBufferCount(rate: Int) -> Int {
        let least = FilteredFeeder.fedBufferCount
        let refresh = driver.isDevice ? device.refresh : 0
        guard refresh > 0 else { return least }
        let half = FilteredFeeder.fedBlockFrames / 2
        let frames = 3 * rate / refresh + FilteredFeeder.fedBlockFrames
        return max(least, (frames + half - 1) / half)
    }

    /// Moves a playing (or paused) voice that plays its sound directly onto the filtered path, from
    /// where it is, without a gap.
    func engageCutoff(_ slot: Int32, in state: inout EngineState, at frame: Int64) {
        let index = Int(slot)
        let phase = state.pool.voices[index].phase
        guard state.pool.voices[index].filtered == nil, phase == .playing || phase == .paused,
            let source = state.pool.voices[index].source
        else { return }
        let offset: Int
        if case .stream(let stream) = state.pool.voices[index].content {
            offset = stream.position(source: source)
            stream.handOver(source: source)
        } else {
            // A one-shot that has ended is left for housekeeping to reap, not started again.
            guard source.state != .stopped else { return }
            offset = source.sampleOffset
        }
        source.clearForQueue()
        do throws(AudioEngineError) {
            try startFiltered(slot, source: source, from: offset, in: &state, at: frame, engaged: true)
            if phase == .playing { try source.play() }
        } catch {
            // Housekeeping finds the source stopped and ends the voice.
            return
        }
        wakeForRefill(&state, at: frame)
    }

    /// How long a cutoff filter takes at least to come on or go off: a filter switched on at once
    /// would step the signal (a click); from or to fully open, it does not.
    static let filterSwitchSeconds = 0.01

    /// Glides `ramp` to `target`: at once for no glide (but a filter coming on or going off takes
    /// ``filterSwitchSeconds``), else starting ``filterLatency`` from now so every filtered voice
    /// hears all of it.
    func retarget(_ ramp: inout CutoffRamp?, to target: CutoffFilter?, glide frames: Int64, at now: Int64) {
        let current = ramp?.value(at: now)
        guard current != nil || target != nil else {
            ramp = nil
            return
        }
        let begin = frames > 0 ? now + filterLatencyFrames : now
        let switching = (current == nil) != (target == nil)
        let fade = switching ? Int64(Self.filterSwitchSeconds * Double(sampleRate)) : 0
        // Switched at once, the filter holds its cutoff and fades in (or out); a glide sweeps.
        ramp = (ramp ?? .constant(nil)).retargeted(
            to: target, at: now, begin: begin, over: max(frames, fade), fade: fade, sweeps: frames > 0)
    }

    /// Makes the next housekeeping come at once, so a voice just moved onto the filtered path gets its
    /// refills on time.
    private func wakeForRefill(_ state: inout EngineState, at frame: Int64) {
        state.nextWakeFrame = min(state.nextWakeFrame, frame)
        ring.wake()
    }
}
