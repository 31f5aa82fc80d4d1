import Foundation
import SoundStationTesting
import Testing

@testable import SoundStation

/// A streamed voice and a filtered one both play through a queue of OpenAL buffers (``BufferQueue``):
/// measured against the same sound played from memory, they keep the same position, loop at the same
/// frame and seek to the same frame, sample for sample, whether the filter is on from the start or
/// comes on mid-play (a stream hands what it had queued to the filter).
@Suite struct VoiceQueueTests {
    /// One second of stereo noise, as a float WAV in `folder`.
    static func noise(in folder: DecodingTestDirectory) throws -> (path: String, audio: PCMAudio) {
        let audio = Signals.noise(seconds: 1, channels: 2)
        let path = folder.path("noise.wav")
        try WAVWriter.write(audio, toFileAt: path, format: .float32)
        return (path, audio)
    }

    /// Plays the noise looping on a fresh offline engine, streamed or from a buffer, with `filter`
    /// from the start or from `engageAt`; renders in steps, seeking at one of them; returns the
    /// render and the position read after each step.
    static func play(
        streamed: Bool, path: String, audio: PCMAudio, filter: SoundFilter, engageAt: Int?
    ) throws -> (mix: [Float], positions: [Int?]) {
        let engine = try AudioEngine(output: .offline(sampleRate: 48_000, channels: 2))
        let options = PlayOptions(loop: true, filter: engageAt == nil ? filter : nil)
        let voice: VoiceHandle
        if streamed {
            voice = try #require(try engine.play(engine.makeStream(fileAt: path), options: options))
        } else {
            voice = try #require(try engine.play(engine.makeBuffer(audio, name: "noise"), options: options))
        }
        var mix: [Float] = []
        var positions: [Int?] = []
        // Steps of a third of a block and more, across the loop end (48,000) and back.
        for (step, frames) in [10_000, 20_000, 25_000, 9_000, 30_000, 40_000].enumerated() {
            if step == engageAt { try engine.setFilter(filter, for: voice) }
            if step == 4 { try engine.seek(voice, toFrame: 30_000) }
            mix += try engine.render(frames: frames).samples
            positions.append(engine.position(of: voice))
        }
        return (mix, positions)
    }

    @Test(arguments: [nil, 2])
    func aStreamAndABufferOnTheFilteredPathPlayTheSameSamples(engageAt: Int?) throws {
        let folder = try DecodingTestDirectory()
        defer { try? FileManager.default.removeItem(at: folder.url) }
        let (path, audio) = try Self.noise(in: folder)
        let filter = SoundFilter.lowpass(cutoff: 2_000)
        let buffer = try Self.play(
            streamed: false, path: path, audio: audio, filter: filter, engageAt: engageAt)
        let stream = try Self.play(
            streamed: true, path: path, audio: audio, filter: filter, engageAt: engageAt)
        // A stream's chunk that wraps at the loop end counts on past it (a position read inside such
        // a chunk is the sound's length too far, as before the shared queue): the same frame of the sound.
        #expect(buffer.positions == stream.positions.map { $0.map { $0 % audio.frameCount } })
        #expect(buffer.mix.count == stream.mix.count)
        let worst = zip(buffer.mix, stream.mix).map { abs($0 - $1) }.max() ?? 1
        #expect(worst < 1e-6, "the stream's render strays from the buffer's by \(worst)")
        // The loop wrapped: heard past the end of the one-second sound.
        #expect(buffer.positions.allSatisfy { ($0 ?? -1) >= 0 && ($0 ?? .max) < 48_000 })
        let tail = stream.mix.suffix(2 * 40_000)
        #expect(tail.map { abs($0) }.max() ?? 0 > 0.01, "the looping stream still plays after the seek")
    }

    @Test func aStreamWithoutAFilterKeepsItsPositionThroughLoopAndSeek() throws {
        let folder = try DecodingTestDirectory()
        defer { try? FileManager.default.removeItem(at: folder.url) }
        let (path, audio) = try Self.noise(in: folder)
        let engine = try AudioEngine(output: .offline(sampleRate: 48_000, channels: 2))
        let voice = try #require(
            try engine.play(engine.makeStream(fileAt: path), options: PlayOptions(loop: true)))
        _ = try engine.render(frames: 60_000)
        #expect(engine.position(of: voice) == 12_000, "wrapped once")
        try engine.seek(voice, toFrame: 40_000)
        let after = try engine.render(frames: 16_000)
        #expect(engine.position(of: voice) == 8_000)
        // The 8,000 frames to the end, then the start again, exactly.
        #expect(AudioAnalysis.largestDifference(after, at: 0, audio, from: 40_000, to: 48_000) < 1e-6)
        #expect(AudioAnalysis.largestDifference(after, at: 8_000, audio, from: 0, to: 8_000) < 1e-6)
    }

    /// Whoever still holds a stream's feeder when its engine closes (the streaming worker, decoding
    /// a chunk) holds no OpenAL buffer of it: they went on the mixing side with the voice, so no
    /// thread calls OpenAL after the engine has closed (which raced OpenAL Soft's exit-time teardown).
    @Test(arguments: [false, true])
    func aStreamHeldPastItsVoiceHoldsNoOpenALBuffer(engineCloses: Bool) throws {
        let folder = try DecodingTestDirectory()
        defer { try? FileManager.default.removeItem(at: folder.url) }
        let (path, _) = try Self.noise(in: folder)
        var engine: AudioEngine? = try AudioEngine(output: .offline(sampleRate: 48_000, channels: 2))
        let voice = try #require(try engine?.play(engine!.makeStream(fileAt: path)))
        _ = try engine?.render(frames: 4_800)
        let held = try #require(
            engine?.mixer.run { engine?.mixer.state.pool.voices.compactMap(\.stream).first })
        #expect(held.residentBytes > 0, "the stream has queued buffers while it plays")
        if engineCloses {
            engine?.shutdown()
            engine = nil
        } else {
            engine?.stop(voice)
            _ = try engine?.render(frames: 4_800)
        }
        #expect(held.bufferCount == 0, "the held stream still owns \(held.bufferCount) OpenAL buffers")
    }
}
