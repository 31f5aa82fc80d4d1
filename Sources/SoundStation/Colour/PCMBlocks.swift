/// Where a filtered voice's samples come from, a block at a time, on the mixing side.
protocol PCMBlocks: AnyObject {
    /// Samples per frame (1 or 2).
    var channels: Int { get }
    /// The sound's own rate.
    var sampleRate: Int { get }
    /// The next samples, at most `maxFrames` frames, and the sound frame they begin at; `nil` when
    /// none are ready (see ``isFinished``).
    func nextBlock(maxFrames: Int) -> (start: Int, samples: [Float])?
    /// Whether nothing more will come: the sound played to its end (never for a loop), or failed.
    var isFinished: Bool { get }
    /// Where the blocks go back in the sound, when it loops or repeats (a block may run over the end).
    var wrap: BufferQueue.Wrap? { get }
    /// ``nextBlock(maxFrames:)`` written to `destination` (room for `maxFrames` frames): the sound
    /// frame the block begins at and its frames.
    func nextBlock(into destination: UnsafeMutablePointer<Float>, maxFrames: Int) -> (
        start: Int, frames: Int
    )?
}

extension PCMBlocks {
    /// Blocks that never go back in the sound.
    var wrap: BufferQueue.Wrap? { nil }

    func nextBlock(into destination: UnsafeMutablePointer<Float>, maxFrames: Int) -> (
        start: Int, frames: Int
    )? {
        guard let block = nextBlock(maxFrames: maxFrames) else { return nil }
        let count = min(block.samples.count, maxFrames * channels)
        block.samples.withUnsafeBufferPointer { destination.update(from: $0.baseAddress!, count: count) }
        return (block.start, count / max(channels, 1))
    }
}

/// A preloaded sound's samples, read from a frame on, wrapping at its loop points when it loops.
final class MemoryBlocks: PCMBlocks {
    let channels: Int
    let sampleRate: Int
    private let samples: [Float]
    private let loop: Range<Int>?
    private var cursor: Int
    /// Whole passes still to play after this one (``PlayOptions/repeats``), when not looping.
    private var repeats: Int

    /// - Parameters:
    ///   - buffer: The sound, which keeps its samples (``SoundBuffer/samples``).
    ///   - frame: Where to begin.
    ///   - loops: Whether to wrap at the loop end (the buffer's loop points, else its ends).
    ///   - repeats: Without `loops`: whole passes to play after this one.
    init(_ buffer: SoundBuffer, from frame: Int, loops: Bool, repeats: Int = 0) {
        self.repeats = loops ? 0 : max(0, repeats)
        channels = buffer.channels
        sampleRate = buffer.sampleRate
        samples = buffer.samples
        let frames = samples.count / max(channels, 1)
        loop = loops ? (buffer.loopPoints ?? 0..<frames) : nil
        cursor = min(max(frame, 0), frames)
    }

    var isFinished: Bool { loop == nil && repeats == 0 && cursor >= samples.count / max(channels, 1) }

    var wrap: BufferQueue.Wrap? {
        if let loop { return BufferQueue.Wrap(end: loop.upperBound, to: loop.lowerBound) }
        return repeats > 0 ? BufferQueue.Wrap(end: samples.count / max(channels, 1), to: 0) : nil
    }

    func nextBlock(maxFrames: Int) -> (start: Int, samples: [Float])? {
        let start = cursor
        var block: [Float] = []
        block.reserveCapacity(maxFrames * channels)
        while block.count < maxFrames * channels,
            let span = nextSpan(maxFrames: maxFrames - block.count / channels)
        {
            block += samples[(span.lowerBound * channels)..<(span.upperBound * channels)]
        }
        return block.isEmpty ? nil : (start, block)
    }

    /// Copies straight from the sound's samples, with no block array in between.
    func nextBlock(into destination: UnsafeMutablePointer<Float>, maxFrames: Int) -> (
        start: Int, frames: Int
    )? {
        let start = cursor
        var written = 0
        samples.withUnsafeBufferPointer { source in
            while written < maxFrames, let span = nextSpan(maxFrames: maxFrames - written) {
                (destination + written * channels).update(
                    from: source.baseAddress! + span.lowerBound * channels, count: span.count * channels)
                written += span.count
            }
        }
        return written == 0 ? nil : (start, written)
    }

    /// The next frames to copy, at most `maxFrames` (above 0), the cursor moved past them: from the
    /// loop start or the sound's start again when the cursor is at the loop end or at the end of a
    /// pass with repeats left; nil at the end of the sound.
    private func nextSpan(maxFrames: Int) -> Range<Int>? {
        let total = samples.count / max(channels, 1)
        var end = loop?.upperBound ?? total
        if cursor >= end {
            if loop == nil, repeats > 0, total > 0 {
                repeats -= 1
                cursor = 0
            } else {
                guard let loop, !loop.isEmpty else { return nil }
                cursor = loop.lowerBound
            }
            end = loop?.upperBound ?? total
        }
        let span = cursor..<min(cursor + maxFrames, end)
        cursor = span.upperBound
        return span
    }
}
