import Testing

@testable import SoundStation
@testable import SoundStationPlayer

/// The speaker's queue on a loopback device, whose mixing the test steps by hand: pieces appended
/// after the source ran dry are heard, not counted as played.
@Suite struct SpeakerQueueTests {
    static let rate = 48_000
    static let piece = 480

    /// A piece of one constant level.
    static func buffer(_ level: Float, on device: OpenALDevice) throws -> OpenALBuffer {
        try OpenALBuffer(
            device: device,
            audio: PCMAudio(sampleRate: rate, channels: 1, samples: [Float](repeating: level, count: piece)))
    }

    @Test func piecesAppendedAfterTheSourceRanDryAreHeardNotCountedAsPlayed() throws {
        let device = try OpenALDevice(loopbackSampleRate: Self.rate, channels: 2)
        let source = try OpenALSource(device: device)
        var queue = SpeakerQueue(source: source, pieceFrames: Self.piece)
        let first = try [0.2, 0.2].map { try Self.buffer($0, on: device) }
        #expect(queue.append(first) == (ranDry: false, frames: 0))
        try source.play()
        // The device mixes past the two pieces: the source runs dry while the next are rendered.
        let heard = device.loudestSamples(frames: 4 * Self.piece, per: Self.piece)
        #expect(
            heard[0] > 0.05 && heard[1] > 0.05 && heard[3] == 0, "the first pieces, then nothing: \(heard)")
        #expect(source.state == .stopped)
        let next = try [0.4, 0.4].map { try Self.buffer($0, on: device) }
        let (ranDry, frames) = queue.append(next)
        #expect(ranDry, "the source had stopped before the pieces came")
        #expect(frames == 2 * Self.piece, "only the two pieces before them played")
        #expect(queue.queued.map(\.id) == next.map(\.id) && queue.free.map(\.id) == first.map(\.id))
        try source.play()
        let after = device.loudestSamples(frames: 3 * Self.piece, per: Self.piece)
        #expect(after[0] > 0.1 && after[1] > 0.1 && after[2] == 0, "the new pieces are heard: \(after)")
        // Now they have played: the source stopped at the end of its queue.
        let (dry, taken) = queue.reclaim()
        #expect(dry && taken == 2 * Self.piece && queue.queued.isEmpty && queue.free.count == 4)
    }

    /// A queue dropped after a hold-up: every buffer is free again, and the next pieces play.
    @Test func aStoppedAndEmptiedQueueFreesEveryBufferAndPlaysTheNextPieces() throws {
        let device = try OpenALDevice(loopbackSampleRate: Self.rate, channels: 2)
        let source = try OpenALSource(device: device)
        var queue = SpeakerQueue(source: source, pieceFrames: Self.piece)
        let first = try [0.2, 0.2, 0.2].map { try Self.buffer($0, on: device) }
        _ = queue.append(first)
        try source.play()
        _ = device.loudestSamples(frames: Self.piece, per: Self.piece)
        #expect(queue.stopAndEmpty() == 3 * Self.piece)
        #expect(queue.queued.isEmpty && queue.free.count == 3)
        #expect(queue.reclaim() == (dry: true, frames: 0), "nothing is left on the source")
        // The freed buffers take the next pieces (OpenAL refuses data for a buffer still queued).
        let louder = PCMAudio(
            sampleRate: Self.rate, channels: 1, samples: [Float](repeating: 0.4, count: Self.piece))
        for buffer in queue.free { try buffer.fill(louder) }
        let next = queue.free
        queue.free = []
        #expect(queue.append(next).ranDry, "a stopped source takes them and must play again")
        try source.play()
        let after = device.loudestSamples(frames: 4 * Self.piece, per: Self.piece)
        #expect(after[0] > 0.1 && after[2] > 0.1 && after[3] == 0, "the three new pieces: \(after)")
    }

    /// What the queue guards against: OpenAL counts pieces appended to a stopped source as
    /// processed before they play.
    @Test func openALCountsPiecesAppendedToAStoppedSourceAsProcessed() throws {
        let device = try OpenALDevice(loopbackSampleRate: Self.rate, channels: 2)
        let source = try OpenALSource(device: device)
        try source.queue([try Self.buffer(0.2, on: device)])
        try source.play()
        _ = device.loudestSamples(frames: 2 * Self.piece, per: Self.piece)
        try source.queue([try Self.buffer(0.4, on: device)])
        #expect(source.state == .stopped && source.processedBuffers == 2)
    }
}
