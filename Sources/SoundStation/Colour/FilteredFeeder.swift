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
    /// Blocks queued on the source: 4 x 1024 frames is 85 ms at 48 kHz.
    static let bufferCount = 4

    let blocks: any PCMBlocks
    private var buffers: [OpenALBuffer] = []
    /// Where each queued block begins in the sound, and the underruns.
    private var queue = BufferQueue()
    /// The frames of each queued block, oldest first.
    private var queuedLengths: [Int] = []
    /// Buffers off the queue waiting for a block (a stream's decoder is behind, or just seeked):
    /// queued as soon as blocks come.
    private var idle: [OpenALBuffer] = []
    private var chain = FilterChain()
    /// The render-clock frame the next block will be heard at, so a glide is heard as it was set.
    private var clock: Double

    /// The render-clock frame the voice has been heard since (`Int64.min` for one that played
    /// unfiltered before), for ``CutoffRamp/wet(at:heardSince:)``.
    private let heardSince: Int64

    /// - Parameters:
    ///   - blocks: Where the samples come from.
    ///   - frame: The render-clock frame the voice is heard from.
    ///   - startOffset: The sound frame the first block begins at.
    ///   - heardSince: See ``heardSince``.
    init(blocks: any PCMBlocks, from frame: Int64, startOffset: Int, heardSince: Int64) {
        self.blocks = blocks
        self.clock = Double(frame)
        self.heardSince = heardSince
        queue.next = startOffset
    }

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
        return max(Int64(Double(Self.blockFrames) / rate * Double(engineRate)), 1)
    }

    /// Fills the queue's first blocks and queues them on `source` (set up, stopped and empty).
    /// - Throws: ``AudioEngineError`` when OpenAL refuses a buffer.
    func prime(source: OpenALSource, settings: Settings) throws(AudioEngineError) {
        if buffers.isEmpty {
            buffers = try BufferQueue.makeBuffers(
                count: Self.bufferCount, device: source.device, sampleRate: blocks.sampleRate,
                channels: blocks.channels)
        }
        queue.starts = []
        queuedLengths = []
        idle = buffers
        var ready: [OpenALBuffer] = []
        while let buffer = idle.first, try fill(buffer, settings: settings) {
            idle.removeFirst()
            ready.append(buffer)
        }
        try source.queue(ready)
    }

    /// Refills the blocks the mixer has finished with; restarts the source after an underrun.
    /// - Returns: False once the sound has played to its end.
    func refill(source: OpenALSource, settings: Settings) -> Bool {
        let processed = source.processedBuffers
        if processed > 0, let names = try? source.unqueue(count: processed) {
            queue.starts.removeFirst(min(processed, queue.starts.count))
            queuedLengths.removeFirst(min(processed, queuedLengths.count))
            idle += names.compactMap { name in buffers.first { $0.id == name } }
        }
        while let buffer = idle.first, (try? fill(buffer, settings: settings)) == true {
            idle.removeFirst()
            guard (try? source.queue([buffer])) != nil else {
                queue.starts.removeLast()
                queuedLengths.removeLast()
                continue
            }
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
        max(queuedLengths.reduce(0, +) - source.sampleOffset, 0)
    }

    /// Fills `buffer` with the next filtered block.
    /// - Returns: False when no block was ready.
    private func fill(_ buffer: OpenALBuffer, settings: Settings) throws(AudioEngineError) -> Bool {
        guard var block = blocks.nextBlock(maxFrames: Self.blockFrames) else { return false }
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
        queue.starts.append(block.start)
        queuedLengths.append(frames)
        queue.next = block.start + frames
        return true
    }
}
