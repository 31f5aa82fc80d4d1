import Testing

@testable import SoundStation

/// A voice's queue on a loopback device, whose mixing the test steps by hand: blocks queued after
/// the source ran dry are heard once, at their place, and the blocks before them are not heard again.
@Suite struct BufferQueueTests {
    static let rate = 48_000
    static let block = 480

    /// Fills each buffer it is given with the next level of `levels`, one block each, the sound's
    /// blocks in order; nil once the levels run out (no samples ready).
    final class Levels {
        var levels: [Float]
        var blocks = 0
        init(_ levels: [Float]) { self.levels = levels }

        func fill(_ buffer: OpenALBuffer) throws(AudioEngineError) -> BufferQueue.Block? {
            guard !levels.isEmpty else { return nil }
            let level = levels.removeFirst()
            try buffer.fill(
                PCMAudio(
                    sampleRate: BufferQueueTests.rate, channels: 1,
                    samples: [Float](repeating: level, count: BufferQueueTests.block)))
            defer { blocks += 1 }
            return BufferQueue.Block(start: blocks * BufferQueueTests.block, frames: BufferQueueTests.block)
        }
    }

    /// A loopback device and a source playing a queue of four buffers primed with a block of each
    /// of `levels`.
    static func playing(_ levels: [Float]) throws -> (OpenALDevice, OpenALSource, BufferQueue, Levels) {
        let device = try OpenALDevice(loopbackSampleRate: rate, channels: 2)
        let source = try OpenALSource(device: device)
        let queue = BufferQueue()
        let levels = Levels(levels)
        try queue.prime(source: source, count: 4, sampleRate: rate, channels: 1, fill: levels.fill)
        try source.play()
        return (device, source, queue, levels)
    }

    @Test func blocksQueuedAfterTheSourceRanDryPlayOnceAndTheOnesBeforeThemAreNotHeardAgain() throws {
        let (device, source, queue, levels) = try Self.playing([0.1, 0.2])
        let first = device.loudestSamples(frames: Self.block, per: Self.block)
        // A refill takes the played block off, finds no samples ready, and the source plays on.
        queue.refill(source: source, fill: levels.fill)
        #expect(queue.settle(source: source) { false } && queue.blocks.count == 1)
        // The device mixes past the second block while the next ones are made: the source runs dry.
        let dry = device.loudestSamples(frames: 2 * Self.block, per: Self.block)
        #expect(dry[1] == 0 && source.state == .stopped, "the second block, then nothing: \(dry)")
        levels.levels = [0.5, 0.6]
        queue.fillIdle(source: source, fill: levels.fill)
        #expect(
            queue.blocks.map(\.start) == [2, 3].map { $0 * Self.block }, "only the new blocks are queued")
        #expect(queue.position(source: source) == 2 * Self.block)
        #expect(queue.settle(source: source) { false } && queue.takeUnderruns() == 1)
        let after = device.loudestSamples(frames: 3 * Self.block, per: Self.block)
        // A mono source is heard at the same gain throughout: levels compare by their ratio.
        let unit = first[0] / 0.1
        let expected: [Float] = [0.5, 0.6, 0].map { $0 * unit }
        #expect(
            zip(after, expected).allSatisfy { abs($0 - $1) < 0.01 },
            "the new blocks once, in order (the second block again before them was the fault): \(after) against \(expected)"
        )
        queue.reclaim(source: source)
        #expect(queue.idle.count == 4 && queue.blocks.isEmpty, "every buffer back, none counted twice")
    }

    @Test func aSourceStillPlayingKeepsItsQueueAsItIs() throws {
        let (device, source, queue, levels) = try Self.playing([0.1, 0.2])
        _ = device.loudestSamples(frames: Self.block / 2, per: Self.block)
        levels.levels = [0.3]
        queue.fillIdle(source: source, fill: levels.fill)
        #expect(queue.blocks.count == 3 && queue.idle.count == 1 && source.state == .playing)
        #expect(queue.position(source: source) == Self.block / 2)
        _ = device.loudestSamples(frames: Self.block / 2, per: Self.block)
        let heard = device.loudestSamples(frames: 3 * Self.block, per: Self.block)
        let unit = heard[0] / 0.2
        #expect(abs(heard[1] - 0.3 * unit) < 0.01 && heard[2] == 0, "the queued blocks in order: \(heard)")
    }
}
