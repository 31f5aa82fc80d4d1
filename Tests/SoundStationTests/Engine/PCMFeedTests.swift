import SoundStationTesting
import Testing

@testable import SoundStation

/// Streams a game feeds (`openFeed`) and raw PCM of any channel count (`PCMAudio(interleaved:)`),
/// rendered offline.
@Suite struct PCMFeedTests {
    private func engine() throws -> AudioEngine {
        try AudioEngine(output: .offline(sampleRate: 48_000, channels: 2))
    }

    @Test("frames written in 10 ms pieces ahead of the render come out sample-exact, with no underrun")
    func feedsExactly() throws {
        let engine = try engine()
        let noise = Signals.noise(seconds: 1, channels: 2)
        let feed = try engine.openFeed(channels: 2, sampleRate: 48_000)
        var written = 0
        var out: [Float] = []
        let piece = 480
        for rendered in stride(from: 0, to: 48_000, by: piece) {
            while written < rendered + 2 * piece, written < 48_000 {
                let slice = Array(noise.samples[(written * 2)..<((written + piece) * 2)])
                #expect(feed.write(slice) == piece)
                written += piece
            }
            out += try engine.render(frames: piece).samples
        }
        let rendered = PCMAudio(sampleRate: 48_000, channels: 2, samples: out)
        #expect(AudioAnalysis.largestDifference(rendered, at: 0, noise, from: 0, to: 48_000) < 1e-6)
        #expect(feed.underruns == 0 && feed.refusedFrames == 0)
        // Unfed, the voice runs dry once and stays alive; fed again, it plays again.
        _ = try engine.render(frames: 4800)
        #expect(feed.underruns == 1)
        #expect(feed.write([Float](repeating: 0.5, count: 960)) == 480)
        let again = try engine.render(frames: 480)
        #expect(again.samples.allSatisfy { abs($0 - 0.5) < 1e-6 })
        feed.close()
        #expect(feed.write([0.1, 0.1]) == 0)
        #expect(try engine.render(frames: 4800).samples.allSatisfy { $0 == 0 })
    }

    @Test("a full queue takes what fits and counts the rest")
    func refusesWhatDoesNotFit() throws {
        let engine = try engine()
        let feed = try engine.openFeed(channels: 1, sampleRate: 48_000, queueFrames: 100)
        #expect(feed.write([Float](repeating: 0.2, count: 250)) == 100)
        #expect(feed.refusedFrames == 150 && feed.queuedFrames == 100)
        let out = try engine.render(frames: 400)
        #expect(stride(from: 0, to: out.samples.count, by: 2).filter { out.samples[$0] > 0.1 }.count == 100)
        #expect(feed.queuedFrames == 0)
    }

    @Test("bad channel counts, rates and queue sizes are refused by name")
    func refusesBadArguments() throws {
        let engine = try engine()
        #expect(throws: AudioEngineError.self) { try engine.openFeed(channels: 3, sampleRate: 48_000) }
        #expect(throws: AudioEngineError.self) { try engine.openFeed(channels: 1, sampleRate: 10) }
        #expect(throws: AudioEngineError.self) {
            try engine.openFeed(channels: 1, sampleRate: 48_000, queueFrames: 0)
        }
        #expect(throws: AudioEngineError.self) {
            try PCMAudio(interleaved: [Float](), channels: 1, sampleRate: 48_000)
        }
        #expect(throws: AudioEngineError.self) {
            try PCMAudio(interleaved: [Int16](repeating: 0, count: 3), channels: 2, sampleRate: 48_000)
        }
    }

    @Test("six channels mix down to stereo; int16 scales to -1...1")
    func interleavedPCM() throws {
        var six = [Float](repeating: 0, count: 60)
        for frame in 0..<10 { (six[frame * 6], six[frame * 6 + 2]) = (0.4, 0.2) }
        let mixed = try PCMAudio(interleaved: six, channels: 6, sampleRate: 44_100)
        #expect(mixed.channels == 2 && mixed.frameCount == 10 && mixed.sampleRate == 44_100)
        #expect(abs(mixed.samples[0] - (0.4 + 0.2 * 0.707_106_77)) < 1e-5)
        #expect(abs(mixed.samples[1] - 0.2 * 0.707_106_77) < 1e-5)
        let ints = try PCMAudio(interleaved: [Int16.min, 16_384], channels: 1, sampleRate: 8000)
        #expect(ints.samples == [-1, 0.5])
    }
}
