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
    /// ``nextBlock(maxFrames:)`` written to `destination` (room for `maxFrames` frames): the sound
    /// frame the block begins at and its frames.
    func nextBlock(into destination: UnsafeMutablePointer<Float>, maxFrames: Int) -> (
        start: Int, frames: Int
    )?
}

extension PCMBlocks {
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

    func nextBlock(maxFrames: Int) -> (start: Int, samples: [Float])? {
        let total = samples.count / max(channels, 1)
        let start = cursor
        var block: [Float] = []
        block.reserveCapacity(maxFrames * channels)
        while block.count < maxFrames * channels {
            let end = loop?.upperBound ?? total
            if cursor >= end {
                if loop == nil, repeats > 0, total > 0 {
                    repeats -= 1
                    cursor = 0
                    continue
                }
                guard let loop, !loop.isEmpty else { break }
                cursor = loop.lowerBound
            }
            let frames = min(maxFrames - block.count / channels, end - cursor)
            block += samples[(cursor * channels)..<((cursor + frames) * channels)]
            cursor += frames
        }
        return block.isEmpty ? nil : (start, block)
    }

    /// Copies straight from the sound's samples, with no block array in between.
    func nextBlock(into destination: UnsafeMutablePointer<Float>, maxFrames: Int) -> (
        start: Int, frames: Int
    )? {
        let total = samples.count / max(channels, 1)
        let start = cursor
        var written = 0
        samples.withUnsafeBufferPointer { source in
            while written < maxFrames {
                let end = loop?.upperBound ?? total
                if cursor >= end {
                    if loop == nil, repeats > 0, total > 0 {
                        repeats -= 1
                        cursor = 0
                        continue
                    }
                    guard let loop, !loop.isEmpty else { break }
                    cursor = loop.lowerBound
                }
                let frames = min(maxFrames - written, end - cursor)
                (destination + written * channels).update(
                    from: source.baseAddress! + cursor * channels, count: frames * channels)
                cursor += frames
                written += frames
            }
        }
        return written == 0 ? nil : (start, written)
    }
}
