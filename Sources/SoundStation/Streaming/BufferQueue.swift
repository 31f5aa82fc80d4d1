import COpenAL

/// A source fed through a short queue of OpenAL buffers, as a stream and a filtered voice are: the
/// buffers, which of them wait for samples, where in the sound each queued one begins and how long
/// it is, and how often the queue ran dry. It primes, refills and keeps the position; what fills a
/// buffer (a decoder's chunk, a filtered block) is its owner's. Mixing side only.
///
/// `@unchecked Sendable`: touched only on the mixing side, as its owner is.
final class BufferQueue: @unchecked Sendable {
    /// One queued buffer's part of the sound.
    struct Block {
        /// The sound frame it begins at.
        var start: Int
        /// Its frames.
        var frames: Int
        /// Its samples, when the owner keeps them (a stream, to hand what it has not played to a
        /// filter); empty otherwise.
        var samples: [Float] = []
    }

    /// Every buffer of the queue, made at the first prime on a device.
    @exclusivity(unchecked) private(set) var buffers: [OpenALBuffer] = []
    /// Buffers off the queue waiting for samples (the owner's source was behind, or just primed):
    /// queued as soon as samples come, so a queue that ran dry fills up again.
    @exclusivity(unchecked) private(set) var idle: [OpenALBuffer] = []
    /// The queued buffers' parts, oldest first (played ones stay until unqueued).
    @exclusivity(unchecked) private(set) var blocks: [Block] = []
    /// The sound frame the next buffer begins at, for the position with nothing queued.
    @exclusivity(unchecked) var next = 0
    /// Where the sound goes back when it loops or repeats (its owner sets it once it knows), so the
    /// position of a block that runs over the loop end stays within the sound.
    @exclusivity(unchecked) var wrap: Wrap?

    /// A loop end, `end`, and the frame the sound continues from past it, `to`.
    struct Wrap: Equatable {
        var end: Int
        var to: Int

        /// `frame` counted on from a frame before the loop end, brought back within the sound: a
        /// block runs on past `end` by up to its length, a loop shorter than a block more than once.
        func wrapped(_ frame: Int) -> Int {
            guard frame >= end, end > to else { return frame }
            return to + (frame - end) % (end - to)
        }
    }

    /// `frame` brought back within the sound by ``wrap``.
    func wrapped(_ frame: Int) -> Int { wrap?.wrapped(frame) ?? frame }
    /// Times the source stopped because the queue ran dry.
    @exclusivity(unchecked) private var underruns = 0

    /// What fills an idle buffer: the part of the sound it now holds, or nil when no samples are
    /// ready.
    typealias Fill = (OpenALBuffer) throws(AudioEngineError) -> Block?

    /// Makes the buffers on the first call (`count` of them, for `channels` at `sampleRate`, on
    /// `source`'s device), fills as many as samples are ready for and queues them on `source`, in
    /// one call.
    /// - Throws: ``AudioEngineError`` when OpenAL refuses a buffer or the queue, or what `fill`
    ///   throws.
    func prime(
        source: OpenALSource, count: Int, sampleRate: Int, channels: Int, fill: Fill
    ) throws(AudioEngineError) {
        if buffers.isEmpty {
            buffers = try Self.makeBuffers(
                count: count, device: source.device, sampleRate: sampleRate, channels: channels)
        }
        blocks = []
        idle = buffers
        var ready: [OpenALBuffer] = []
        while let buffer = idle.first, let block = try fill(buffer) {
            idle.removeFirst()
            ready.append(buffer)
            append(block)
        }
        try source.queue(ready)
    }

    /// Takes the buffers the mixer has finished with off `source`, then fills and queues each idle
    /// buffer while `fill` has samples. A buffer OpenAL refuses is dropped and the queue plays on.
    func refill(source: OpenALSource, fill: Fill) {
        reclaim(source: source)
        fillIdle(source: source, fill: fill)
    }

    /// Fills and queues each idle buffer while `fill` has samples, one OpenAL call each.
    func fillIdle(source: OpenALSource, fill: Fill) {
        var appended = 0
        while let buffer = idle.first, let block = try? fill(buffer) {
            idle.removeFirst()
            guard (try? source.queue([buffer])) != nil else { continue }
            append(block)
            appended += 1
        }
        guard appended > 0 else { return }
        _ = source.device.withContext { takeOffPlayedAfterRunningDryInContext(source, appended: appended) }
    }

    /// For a caller inside the source's device context, right after `appended` blocks were queued:
    /// when the source ran dry before they came (a slow refill), takes off the blocks it played, so
    /// that ``settle(source:ended:)`` starts it on the new ones; left on, they would be played again
    /// by that start, or, when no start comes first, the new ones would be counted as played by the
    /// next reclaim and never heard.
    /// - Returns: Whether the source had run dry.
    func takeOffPlayedAfterRunningDryInContext(_ source: OpenALSource, appended: Int) -> Bool {
        source.takeOffPlayedAfterRunningDryInContext(appended: appended) { reclaim($0) }
    }

    /// Records a block just queued.
    func append(_ block: Block) {
        blocks.append(block)
        next = wrapped(block.start + block.frames)
    }

    /// Takes back the records of the last `count` blocks, which OpenAL refused to queue.
    func dropLast(_ count: Int) {
        blocks.removeLast(count)
    }

    /// Takes the first idle buffer, for an owner that fills it outside ``refill(source:fill:)``.
    func takeIdle() {
        idle.removeFirst()
    }

    /// Takes the buffers the mixer has finished with off `source` and makes them idle.
    func reclaim(source: OpenALSource) {
        let processed = source.processedBuffers
        if processed > 0, let names = try? source.unqueue(count: processed) {
            names.withUnsafeBufferPointer { reclaim($0) }
        }
    }

    /// Makes the buffers `names`, just taken off the source's queue, idle.
    func reclaim(_ names: UnsafeBufferPointer<ALuint>) {
        guard !names.isEmpty else { return }
        blocks.removeFirst(min(names.count, blocks.count))
        for name in names {
            if let buffer = buffers.first(where: { $0.id == name }) { idle.append(buffer) }
        }
    }

    /// Forgets what is queued (the source was stopped and emptied); the buffers stay as they are.
    func clear() {
        blocks = []
    }

    /// Forgets the buffers too: they went with a device that was lost, and the next prime makes new
    /// ones.
    func forgetBuffers() {
        buffers = []
        idle = []
        blocks = []
    }

    /// The sound frame being heard: OpenAL's offset counts from the first buffer still queued, and
    /// the blocks follow each other in the sound but at the loop end (``wrap``).
    func position(source: OpenALSource) -> Int {
        wrapped((blocks.first?.start ?? next) + source.sampleOffset)
    }

    /// Frames queued that are not played yet.
    func framesAhead(source: OpenALSource) -> Int {
        blocks.isEmpty ? 0 : max(queuedFrames - source.sampleOffset, 0)
    }

    /// Frames queued, played ones included until they are unqueued.
    var queuedFrames: Int {
        var frames = 0
        for block in blocks { frames += block.frames }
        return frames
    }

    /// After a refill: restarts a source that ran dry.
    /// - Parameter ended: Whether nothing more will come (asked only when nothing is queued).
    /// - Returns: False once the sound has played to its end.
    func settle(source: OpenALSource, ended: () -> Bool) -> Bool {
        if blocks.isEmpty { return !ended() }
        if source.state == .stopped {
            underruns += 1
            try? source.play()
        }
        return true
    }

    /// How many times the queue ran dry since the last call, for the engine's running count.
    func takeUnderruns() -> Int {
        defer { underruns = 0 }
        return underruns
    }

    /// `count` buffers for a queue on `device`, each holding one silent frame until filled.
    private static func makeBuffers(count: Int, device: OpenALDevice, sampleRate: Int, channels: Int)
        throws(AudioEngineError) -> [OpenALBuffer]
    {
        let silence = PCMAudio(
            sampleRate: sampleRate, channels: channels, samples: [Float](repeating: 0, count: channels))
        var buffers: [OpenALBuffer] = []
        for _ in 0..<count { buffers.append(try OpenALBuffer(device: device, audio: silence)) }
        return buffers
    }
}
