import COpenAL

/// Feeds a filtered voice to OpenAL: blocks of its samples, run through its cutoff filters, queued on
/// its source a few at a time.
///
/// A voice takes this path when it or its bus has a cutoff filter (``CutoffFilter``); every other
/// voice plays its buffer or stream directly, as before. The queue is short, ``bufferCount`` blocks of
/// ``blockFrames``: that is the latency a change of filter is heard with on a device. Offline the
/// same blocks are filled at the same render-clock frames every time, so renders stay byte-identical.
///
/// `@unchecked Sendable`: touched only on the mixing side, under the engine's lock.
final class FilteredFeeder: @unchecked Sendable {
    /// Frames per queued block, at the sound's rate.
    static let blockFrames = 1024
    /// Frames per block of a stream the game feeds: short, so frames written just ahead are queued
    /// as soon as they come. A block holds only what was written: a game 10 ms ahead has 10 ms
    /// queued, however many blocks may be.
    static let fedBlockFrames = 256
    /// The fewest blocks a fed stream may have queued (43 ms at 48 kHz), and offline the number; on
    /// a device, as many as it may mix at once (``Mixer/fedBufferCount(rate:)``).
    static let fedBufferCount = 8
    /// This feeder's frames per block and blocks queued.
    let blockFrames: Int
    let bufferCount: Int
    /// Blocks queued on the source: 4 x 1024 frames is 85 ms at 48 kHz.
    static let bufferCount = 4

    let blocks: any PCMBlocks
    /// The source's queue of filtered blocks.
    private let queue = BufferQueue()
    @exclusivity(unchecked) private var chain = FilterChain()
    /// One block's samples per buffer, where a refill of many voices at once filters them
    /// (``refillTogether(_:)``): allocated once, so refills allocate nothing for them.
    private let storage: UnsafeMutablePointer<Float>
    /// The render-clock frame the next block will be heard at, so a glide is heard as it was set.
    @exclusivity(unchecked) private var clock: Double

    /// The render-clock frame the voice has been heard since (`Int64.min` for one that played
    /// unfiltered before), for ``CutoffRamp/wet(at:heardSince:)``.
    private let heardSince: Int64

    /// - Parameters:
    ///   - blocks: Where the samples come from.
    ///   - frame: The render-clock frame the voice is heard from.
    ///   - startOffset: The sound frame the first block begins at.
    ///   - heardSince: See ``heardSince``.
    ///   - blockFrames: Frames per block.
    ///   - bufferCount: Blocks queued at most.
    init(
        blocks: any PCMBlocks, from frame: Int64, startOffset: Int, heardSince: Int64,
        blockFrames: Int = FilteredFeeder.blockFrames, bufferCount: Int = FilteredFeeder.bufferCount
    ) {
        self.blocks = blocks
        self.blockFrames = blockFrames
        self.bufferCount = bufferCount
        slotSamples = blockFrames * 2
        self.clock = Double(frame)
        self.heardSince = heardSince
        queue.next = startOffset
        // Room for stereo whatever `blocks` says now: a stream knows its channels only once the
        // worker has opened its file, after this feeder is made.
        let count = bufferCount * slotSamples
        storage = .allocate(capacity: count)
        storage.initialize(repeating: 0, count: count)
    }

    deinit { storage.deallocate() }

    /// The filters to run and the clock and pitch they are run at, read under the engine's lock.
    struct Settings {
        var own: CutoffRamp?
        var bus: CutoffRamp?
        var pitch: Float
        var engineRate: Int
        var now: Int64
    }

    /// Render-clock frames one block lasts at `pitch`: how often the queue needs a refill.
    func blockSpan(pitch: Float, engineRate: Int) -> Int64 {
        let rate = Double(blocks.sampleRate) * Double(max(pitch, 0.01))
        return max(Int64(Double(blockFrames) / rate * Double(engineRate)), 1)
    }

    /// The first render-clock frame after `now` at which a queued block has been heard, from the
    /// clock the blocks were queued with; nil when none ends after `now` (nothing queued, or a
    /// paused voice whose blocks are late). Housekeeping wakes then: a refill then has a block to
    /// replace, where waking every half block would find nothing half of the time. Offline, OpenAL
    /// gives a block back only once it mixes past its end, so a block heard
    /// exactly by `now` is replaced at the next block's end, together with it. Only a prediction:
    /// a refill that finds nothing processed just comes again.
    func nextBlockHeard(after now: Int64, pitch: Float, engineRate: Int) -> Int64? {
        let framesPerSample = Double(engineRate) / (Double(blocks.sampleRate) * Double(max(pitch, 0.01)))
        var later = queue.queuedFrames
        for block in queue.blocks {
            let length = block.frames
            later -= length
            let end = Int64((clock - Double(later) * framesPerSample).rounded(.up))
            if end > now { return end }
        }
        return nil
    }

    /// Fills the queue's first blocks and queues them on `source` (set up, stopped and empty).
    /// - Throws: ``AudioEngineError`` when OpenAL refuses a buffer.
    func prime(source: OpenALSource, settings: Settings) throws(AudioEngineError) {
        try queue.prime(
            source: source, count: bufferCount, sampleRate: blocks.sampleRate, channels: blocks.channels
        ) { buffer throws(AudioEngineError) in
            try fill(buffer, settings: settings)
        }
    }

    /// Refills the blocks the mixer has finished with; restarts the source after an underrun.
    /// - Returns: False once the sound has played to its end.
    func refill(source: OpenALSource, settings: @autoclosure () -> Settings) -> Bool {
        if refilledTogether {
            // Refilled a moment ago with the other filtered voices: only settle; and when a block
            // was still queued then, the source was still playing it, so there is nothing to ask
            // OpenAL, unless it ran dry while the blocks were filtered (`queuePending` found it
            // stopped and cleared `playedThrough`).
            refilledTogether = false
            if playedThrough, !queue.blocks.isEmpty { return true }
            return queue.settle(source: source) { blocks.isFinished }
        }
        queue.reclaim(source: source)
        let settings = settings()
        queue.fillIdle(source: source) { buffer throws(AudioEngineError) in
            try fill(buffer, settings: settings)
        }
        // Nothing queued: the end, unless a stream's decoder is merely behind.
        return queue.settle(source: source) { blocks.isFinished }
    }

    /// How many times the queue ran dry since the last call.
    func takeUnderruns() -> Int { queue.takeUnderruns() }

    /// The sound frame being heard.
    func position(source: OpenALSource) -> Int { queue.position(source: source) }

    /// Frames queued beyond the one being heard: how late a change of filter is heard.
    func queuedAhead(source: OpenALSource) -> Int {
        max(queue.queuedFrames - source.sampleOffset, 0)
    }

    // MARK: Refilled together

    /// One block taken for a refill of many voices at once: its samples wait in the feeder's slot
    /// for buffer `slot` until they are filtered, uploaded and queued.
    private struct Pending {
        var slot: Int
        var frames: Int
        var start: Int
        /// The render-clock frame the block is heard from.
        var clock: Double
    }
    /// The blocks taken by ``refillTogether(_:)``, oldest first, with what they are filtered with.
    @exclusivity(unchecked) private var pending: [Pending] = []
    @exclusivity(unchecked) private var pendingSettings: Settings?
    /// Set by ``refillTogether(_:)``: the voice's own refill that follows in the same housekeeping
    /// only settles the queue.
    @exclusivity(unchecked) private var refilledTogether = false
    /// Set by ``refillTogether(_:)``: a block was still queued when the finished ones came off, so
    /// the source had not run dry then; cleared when it ran dry before the new blocks were queued.
    @exclusivity(unchecked) private var playedThrough = false

    /// Refills the queues of many filtered voices at once, as each voice's own ``refill(source:settings:)``
    /// would, but with their biquads run side by side in SIMD lanes (``BiquadLanes``): a voice's
    /// filter is a serial chain, so running several voices together hides its latency. Blocks whose
    /// filters glide run voice by voice, as before. The samples are the same to the bit.
    /// One voice of ``refillTogether(_:)``: a struct, not a tuple, so the array of them is copied
    /// by specialised code rather than the runtime's generic tuple witnesses.
    struct Refill {
        let feeder: FilteredFeeder
        let source: OpenALSource
        let settings: Settings
    }

    static func refillTogether(_ voices: [Refill]) {
        guard let device = voices.first?.source.device else { return }
        // By index, never `for voice in voices`: a copy of each element would retain and release
        // its feeder and source on every pass (the retains were 13 % of `filter-lowpass-16`).
        let all = voices.indices
        // Every voice's finished blocks off its queue under one lock (one AL call each, not three).
        device.withContext {
            for v in all where voices[v].source.device === device {
                let feeder = voices[v].feeder
                voices[v].source.unqueueProcessedInContext { feeder.queue.reclaim($0) }
            }
        }
        var deepest = 0
        for v in all {
            let feeder = voices[v].feeder
            if voices[v].source.device !== device { feeder.queue.reclaim(source: voices[v].source) }
            feeder.playedThrough = !feeder.queue.blocks.isEmpty
            feeder.take(settings: voices[v].settings)
            deepest = max(deepest, feeder.pending.count)
        }
        // Round k filters every voice's k-th block: a voice's blocks are filtered in order.
        var round: [FilteredFeeder] = []
        round.reserveCapacity(voices.count)
        for k in 0..<deepest {
            round.removeAll(keepingCapacity: true)
            for v in all where voices[v].feeder.pending.count > k { round.append(voices[v].feeder) }
            filter(round, block: k)
        }
        device.withContext {
            for v in all where voices[v].source.device === device {
                voices[v].feeder.queuePending(on: voices[v].source)
            }
        }
        for v in all where voices[v].source.device !== device {
            voices[v].source.device.withContext { voices[v].feeder.queuePending(on: voices[v].source) }
        }
    }

    /// A feeder whose block holds its filters still, and their coefficients: a struct, not a tuple,
    /// so the array of them is copied by specialised code rather than the runtime's generic tuple
    /// witnesses (which retained the feeder on every copy).
    private struct Still {
        let feeder: FilteredFeeder
        let plan: FilterChain.StillPlan
    }

    /// Filters block `k` of each feeder.
    private static func filter(_ feeders: [FilteredFeeder], block k: Int) {
        var still: [Still] = []
        still.reserveCapacity(feeders.count)
        for feeder in feeders {
            guard let settings = feeder.pendingSettings else { continue }
            let block = feeder.pending[k]
            let rate = feeder.heardRate(settings)
            if let plan = feeder.chain.stillPlan(
                rate: rate, clock: block.clock, own: settings.own, bus: settings.bus)
            {
                still.append(Still(feeder: feeder, plan: plan))
            } else {
                feeder.chain.process(
                    feeder.slot(block.slot), frames: block.frames, channels: feeder.blocks.channels,
                    rate: rate,
                    clock: block.clock, framesPerSample: Double(settings.engineRate) / rate,
                    own: settings.own,
                    bus: settings.bus, heardSince: feeder.heardSince)
            }
        }
        // The voice's own filter first, then its bus's, as the chain runs them.
        var lanes: [BiquadLane] = []
        lanes.reserveCapacity(2 * still.count)
        for isBus in [false, true] {
            lanes.removeAll(keepingCapacity: true)
            // By index: `for item in still` copies each element (a retain and release of its feeder).
            for i in still.indices {
                let feeder = still[i].feeder
                let plan = still[i].plan
                let block = feeder.pending[k]
                let samples = feeder.slot(block.slot)
                let channels = feeder.blocks.channels
                if let coefficients = isBus ? plan.bus : plan.own {
                    feeder.chain.appendLanes(
                        to: &lanes, bus: isBus, coefficients, samples, frames: block.frames,
                        channels: channels)
                } else {
                    feeder.chain.passOpen(bus: isBus, samples, frames: block.frames, channels: channels)
                }
            }
            BiquadLanes.run(&lanes)
            var next = 0
            for i in still.indices where (isBus ? still[i].plan.bus : still[i].plan.own) != nil {
                let feeder = still[i].feeder
                let count = feeder.blocks.channels
                feeder.chain.keep(lanes[next..<(next + count)], bus: isBus)
                next += count
            }
        }
    }

    /// The rate the samples are heard at: the sound's, times the pitch.
    private func heardRate(_ settings: Settings) -> Double {
        Double(blocks.sampleRate) * Double(max(settings.pitch, 0.01))
    }

    /// The samples one slot holds: a block of the most channels a sound has (decoders give mono or
    /// stereo).
    private let slotSamples: Int

    /// The samples of buffer `slot`'s block.
    private func slot(_ slot: Int) -> UnsafeMutablePointer<Float> {
        storage + slot * slotSamples
    }

    /// Takes the next blocks for the idle buffers into their slots, unfiltered, as many as are
    /// ready; the clock moves on past each.
    private func take(settings: Settings) {
        pending.removeAll(keepingCapacity: true)
        pendingSettings = settings
        refilledTogether = true
        queue.wrap = blocks.wrap
        let framesPerSample = Double(settings.engineRate) / heardRate(settings)
        for buffer in queue.idle {
            guard let slot = queue.buffers.firstIndex(where: { $0 === buffer }),
                let block = blocks.nextBlock(into: self.slot(slot), maxFrames: blockFrames)
            else { break }
            // A block is heard right after the one before it, or now if the queue had run dry.
            clock = max(clock, Double(settings.now))
            pending.append(Pending(slot: slot, frames: block.frames, start: block.start, clock: clock))
            clock += Double(block.frames) * framesPerSample
        }
    }

    /// Uploads the filtered blocks and queues them on `source`, all in one call; the caller holds
    /// the source's device (`withContext`).
    private func queuePending(on source: OpenALSource) {
        guard !pending.isEmpty else { return }
        let channels = blocks.channels
        // The names queued, on the stack (this runs for every filtered voice on every refill).
        withUnsafeTemporaryAllocation(of: ALuint.self, capacity: pending.count) { ids in
            var uploaded = 0
            for block in pending {
                let buffer = queue.buffers[block.slot]
                queue.takeIdle()
                // As in a voice's own refill, a block OpenAL refuses is dropped and the queue plays on.
                guard
                    buffer.fillInContext(
                        UnsafeBufferPointer(start: slot(block.slot), count: block.frames * channels),
                        sampleRate: blocks.sampleRate, channels: channels)
                else { continue }
                ids[uploaded] = buffer.id
                uploaded += 1
                queue.append(BufferQueue.Block(start: block.start, frames: block.frames))
            }
            guard uploaded > 0 else { return }
            guard source.queueInContext(UnsafeBufferPointer(rebasing: ids[..<uploaded])) else {
                // Nothing was queued: take the bookkeeping back (the buffers are lost to the voice, as
                // in its own refill).
                queue.dropLast(uploaded)
                return
            }
            // Run dry while the blocks were filtered: the voice's own refill must start it again.
            if queue.takeOffPlayedAfterRunningDryInContext(source, appended: uploaded) {
                playedThrough = false
            }
        }
        pending.removeAll(keepingCapacity: true)
        pendingSettings = nil
    }

    /// Fills `buffer` with the next filtered block.
    /// - Returns: The block's part of the sound; nil when no block was ready.
    private func fill(_ buffer: OpenALBuffer, settings: Settings) throws(AudioEngineError) -> BufferQueue
        .Block?
    {
        guard var block = blocks.nextBlock(maxFrames: blockFrames) else { return nil }
        queue.wrap = blocks.wrap
        let channels = blocks.channels
        let heardRate = Double(blocks.sampleRate) * Double(max(settings.pitch, 0.01))
        let framesPerSample = Double(settings.engineRate) / heardRate
        // A block is heard right after the one before it, or now if the queue had run dry.
        clock = max(clock, Double(settings.now))
        chain.process(
            &block.samples, channels: channels, rate: heardRate, clock: clock,
            framesPerSample: framesPerSample,
            own: settings.own, bus: settings.bus, heardSince: heardSince)
        let frames = block.samples.count / max(channels, 1)
        clock += Double(frames) * framesPerSample
        try buffer.fill(PCMAudio(sampleRate: blocks.sampleRate, channels: channels, samples: block.samples))
        return BufferQueue.Block(start: block.start, frames: frames)
    }
}
