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
}

/// A preloaded sound's samples, read from a frame on, wrapping at its loop points when it loops.
final class MemoryBlocks: PCMBlocks {
    let channels: Int
    let sampleRate: Int
    private let samples: [Float]
    private let loop: Range<Int>?
    private var cursor: Int

    /// - Parameters:
    ///   - buffer: The sound, which keeps its samples (``SoundBuffer/samples``).
    ///   - frame: Where to begin.
    ///   - loops: Whether to wrap at the loop end (the buffer's loop points, else its ends).
    init(_ buffer: SoundBuffer, from frame: Int, loops: Bool) {
        channels = buffer.channels
        sampleRate = buffer.sampleRate
        samples = buffer.samples
        let frames = samples.count / max(channels, 1)
        loop = loops ? (buffer.loopPoints ?? 0..<frames) : nil
        cursor = min(max(frame, 0), frames)
    }

    var isFinished: Bool { loop == nil && cursor >= samples.count / max(channels, 1) }

    func nextBlock(maxFrames: Int) -> (start: Int, samples: [Float])? {
        let total = samples.count / max(channels, 1)
        let start = cursor
        var block: [Float] = []
        block.reserveCapacity(maxFrames * channels)
        while block.count < maxFrames * channels {
            let end = loop?.upperBound ?? total
            if cursor >= end {
                guard let loop, !loop.isEmpty else { break }
                cursor = loop.lowerBound
            }
            let frames = min(maxFrames - block.count / channels, end - cursor)
            block += samples[(cursor * channels)..<((cursor + frames) * channels)]
            cursor += frames
        }
        return block.isEmpty ? nil : (start, block)
    }
}
