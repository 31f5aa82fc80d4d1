import Foundation
import SoundStationTesting
import Synchronization
import Testing

@testable import SoundStation

/// A file played by streaming (`makeStream`, `play(stream)`), outside any catalogue: exact samples,
/// exact seeks, bounded memory, and the same refusals as buffers.
@Suite struct SoundStreamTests {
    /// Stereo noise (4 s unless told) as a float WAV in `folder` (a stereo stream at the centre reaches
    /// the output untouched), and an engine: offline at 48 kHz stereo, or `output`.
    private func noiseFile(
        _ folder: DecodingTestDirectory, output: AudioOutput = .offline(sampleRate: 48_000, channels: 2),
        seconds: Double = 4
    )
        throws -> (path: String, audio: PCMAudio, engine: AudioEngine)
    {
        let audio = Signals.noise(seconds: seconds, channels: 2)
        let path = folder.path("noise.wav")
        try WAVWriter.write(audio, toFileAt: path, format: .float32)
        return (path, audio, try AudioEngine(output: output))
    }

    @Test("a stream starts at its frame and plays the file's samples; a seek moves it to the exact frame")
    func streamsExactly() throws {
        let folder = try DecodingTestDirectory()
        defer { try? FileManager.default.removeItem(at: folder.url) }
        let (path, audio, engine) = try noiseFile(folder)
        let stream = try engine.makeStream(fileAt: path)
        #expect(stream.name == "noise.wav" && stream.info.frameCount == 192_000 && stream.info.channels == 2)
        #expect(stream.duration == .seconds(4))

        let voice = try #require(try engine.play(stream, at: .milliseconds(250)))
        let first = try engine.render(frames: 48_000)
        #expect(AudioAnalysis.onset(first, threshold: 1e-6) == 12_000)
        #expect(AudioAnalysis.largestDifference(first, at: 12_000, audio, from: 0, to: 36_000) < 1e-6)
        #expect(engine.position(of: voice) == 36_000)
        #expect(engine.streamedBytes > 0)

        try engine.seek(voice, toFrame: 150_000)
        _ = try engine.render(frames: 0)  // carries the seek out; queries answer as of a render
        #expect(engine.position(of: voice) == 150_000)
        let after = try engine.render(frames: 48_000)
        #expect(AudioAnalysis.largestDifference(after, at: 0, audio, from: 150_000, to: 192_000) < 1e-6)
        #expect(AudioAnalysis.peak(after, frames: 42_000..<48_000) == 0)
        #expect(!engine.isActive(voice))
        #expect(engine.streamedBytes == 0)
        try engine.seek(voice, toFrame: 0)  // a finished voice: nothing happens
        _ = try engine.render(frames: 0)
        #expect(!engine.isActive(voice))
        #expect(throws: AudioEngineError.self) { try engine.seek(voice, toFrame: -1) }
    }

    @Test("a looping stream wraps to its start without a gap")
    func loops() throws {
        let folder = try DecodingTestDirectory()
        defer { try? FileManager.default.removeItem(at: folder.url) }
        let (path, audio, engine) = try noiseFile(folder)
        let voice = try #require(
            engine.play(try engine.makeStream(fileAt: path), options: PlayOptions(loop: true)))
        let mix = try engine.render(frames: 240_000)
        #expect(AudioAnalysis.largestDifference(mix, at: 192_000, audio, from: 0, to: 48_000) < 1e-6)
        #expect(engine.isActive(voice))
    }

    /// The position of a looping stream stays within the file, however its chunks fall on the wrap:
    /// read after every quantum rendered, it always moves on by one quantum, modulo the length, for a
    /// file longer than a chunk and one shorter (several wraps in one chunk), played directly and
    /// under a cutoff filter (blocks of its own), and for a looping buffer under a filter.
    @Test(
        "a looping stream's position stays within its length and moves on continuously across the wrap",
        arguments: [1.0, 0.0625], [false, true])
    func loopingPositionWraps(seconds: Double, filtered: Bool) throws {
        let folder = try DecodingTestDirectory()
        defer { try? FileManager.default.removeItem(at: folder.url) }
        let (path, audio, engine) = try noiseFile(folder, seconds: seconds)
        let length = Int(seconds * 48_000)
        var options = PlayOptions(loop: true)
        if filtered { options.filter = .cutoff(CutoffFilter(.lowpass, cutoff: 4_000)) }
        let voices = [
            try #require(engine.play(try engine.makeStream(fileAt: path), options: options)),
            try #require(engine.play(try engine.makeBuffer(audio, name: "noise"), options: options)),
        ]
        for voice in voices {
            _ = try engine.render(frames: 0)
            var last: Int?
            var wraps = 0
            for _ in 0..<(3 * 48_000 / 256) {
                _ = try engine.render(frames: 256)
                let position = try #require(engine.position(of: voice))
                #expect((0..<length).contains(position), "position \(position) of a \(length)-frame loop")
                if let last {
                    #expect((position - last - 256 + 4 * length) % length == 0, "\(last) then \(position)")
                    if position < last { wraps += 1 }
                }
                last = position
            }
            #expect(wraps >= 2)
            engine.stop(voice)
        }
    }

    /// Silent output plays on wall time, so this test blocks its own thread to poll (with a deadline)
    /// rather than awaiting: a task suspended behind busy suites could wake after the sound ended.
    @Test("a stream seeks on a running driver too: the worker decodes from the new frame and it plays on")
    func seeksWithTheWorker() throws {
        let folder = try DecodingTestDirectory()
        defer { try? FileManager.default.removeItem(at: folder.url) }
        let (path, _, engine) = try noiseFile(folder, output: .silent, seconds: 30)
        defer { engine.shutdown() }
        let voice = try #require(engine.play(try engine.makeStream(fileAt: path)))
        let deadline = ContinuousClock.now + .seconds(20)
        func wait(until frame: Int) {
            while (engine.position(of: voice) ?? 0) < frame, engine.isActive(voice),
                ContinuousClock.now < deadline
            {
                Thread.sleep(forTimeInterval: 0.005)
            }
        }
        wait(until: 4_800)
        try engine.seek(voice, toFrame: 960_000)
        #expect(engine.waitForMixer())
        // As of the round that carried the seek out: the new frame, or a few frames past it when the
        // worker's first chunk was already playing by the time the round published.
        #expect(engine.position(of: voice).map { (960_000..<964_800).contains($0) } == true)
        wait(until: 964_800)
        let position = try #require(engine.position(of: voice))
        #expect(position >= 964_800 && position < 1_440_000, "at frame \(position)")
        #expect(engine.streamedBytes > 0 && engine.streamedBytes < 600_000)
    }

    @Test("a stream of another engine is an error naming it; so is a missing file")
    func refusals() throws {
        let folder = try DecodingTestDirectory()
        defer { try? FileManager.default.removeItem(at: folder.url) }
        let (path, _, engine) = try noiseFile(folder)
        let other = try AudioEngine(output: .offline(sampleRate: 48_000, channels: 2))
        #expect(
            throws: AudioEngineError.invalidArgument(
                name: "stream", value: "\"noise.wav\"", expected: "a stream made by this engine")
        ) { try engine.play(try other.makeStream(fileAt: path)) }
        let missing = folder.path("missing.ogg")
        let error = #expect(throws: AudioDecodingError.self) { try engine.makeStream(fileAt: missing) }
        #expect(error?.description.contains(missing) == true)
    }
}
