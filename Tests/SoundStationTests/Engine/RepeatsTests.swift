import Foundation
import SoundStationTesting
import Testing

@testable import SoundStation

/// What the C interface's loop counts, fade-ins and music files rest on, in Swift: `PlayOptions.repeats`
/// and `fadeIn`, `MusicStation.play(loop:repeats:)` and `SoundBank.loadMusic(named:fileAt:)`, measured
/// on offline renders.
@Suite struct RepeatsTests {
    /// The frames from the first to the last above the threshold, in either channel.
    private func extent(_ mix: PCMAudio, threshold: Float = 1e-4) -> (first: Int, last: Int)? {
        let frames = mix.samples.count / 2
        let loud = { (i: Int) in
            abs(mix.samples[2 * i]) > threshold || abs(mix.samples[2 * i + 1]) > threshold
        }
        guard let first = (0..<frames).first(where: loud), let last = (0..<frames).last(where: loud) else {
            return nil
        }
        return (first, last)
    }

    @Test(arguments: [(0, Float(1)), (2, Float(1)), (3, Float(2))])
    func repeatsPlayWholePassesAtAnyPitch(repeats: Int, pitch: Float) throws {
        let engine = try AudioEngine(output: .offline(sampleRate: 48_000, channels: 2))
        let blip = try engine.makeBuffer(
            Signals.sine(frequency: 600, seconds: 0.1, phase: .pi / 2), name: "blip")
        var options = PlayOptions(pitch: pitch)
        options.repeats = repeats
        let voice = try engine.play(blip, options: options)
        let mix = try engine.render(frames: 48_000)
        let (first, last) = try #require(extent(mix))
        let wanted = Int((Double((repeats + 1) * 4_800) / Double(pitch)).rounded())
        #expect(first == 0)
        #expect(abs(last + 1 - wanted) <= 8, "\(repeats) repeats at pitch \(pitch): \(last + 1) frames")
        #expect(!engine.isActive(try #require(voice)))
    }

    @Test func repeatsAreCheckedAndLoopWins() throws {
        var options = PlayOptions()
        options.repeats = 1_001
        #expect(throws: AudioEngineError.self) { try options.check() }
        options.repeats = 2
        options.fadeIn = .seconds(-1)
        #expect(throws: AudioEngineError.self) { try options.check() }
        // With `loop` the voice plays until stopped, whatever `repeats` says.
        let engine = try AudioEngine(output: .offline(sampleRate: 48_000, channels: 2))
        let blip = try engine.makeBuffer(Signals.sine(frequency: 600, seconds: 0.1), name: "blip")
        var looping = PlayOptions(loop: true)
        looping.repeats = 1
        let voice = try #require(try engine.play(blip, options: looping))
        _ = try engine.render(frames: 48_000)
        #expect(engine.isActive(voice))
    }

    @Test func fadeInRisesFromSilence() throws {
        let engine = try AudioEngine(output: .offline(sampleRate: 48_000, channels: 2))
        let tone = try engine.makeBuffer(Signals.sine(frequency: 440, seconds: 0.5), name: "tone")
        var options = PlayOptions()
        options.fadeIn = .milliseconds(100)
        try engine.play(tone, options: options)
        let mix = try engine.render(frames: 24_000)
        let early = AudioAnalysis.rms(mix, frames: 0..<480)
        let late = AudioAnalysis.rms(mix, frames: 9_600..<10_080)
        #expect(early < 0.2 * late, "first 10 ms \(early), at 200 ms \(late)")
    }

    @Test func musicFromAFileRepeatsAndStops() async throws {
        let folder = try TestAssets()
        let path = "\(folder.root)/song.wav"
        try WAVWriter.write(
            Signals.stereoTones(left: 300, right: 1_000, seconds: 0.5), toFileAt: path, format: .float32)
        let engine = try AudioEngine(output: .offline(sampleRate: 48_000, channels: 2))
        let system = SoundSystem(
            engine: engine, catalogue: try Catalogue(json: Array(#"{"sounds": []}"#.utf8), root: "/"))
        try system.bank.loadMusic(named: "song", fileAt: path)
        #expect(system.bank.isStreamed("song"))
        #expect(throws: SoundLoadError.self) { try system.bank.loadMusic(named: "song", fileAt: path) }
        #expect(throws: SoundLoadError.self) {
            try system.bank.loadMusic(named: "gone", fileAt: "/nonexistent.wav")
        }
        // The failed load left the name free.
        try system.bank.loadMusic(named: "gone", fileAt: path)
        try system.music.play("song", loop: false, repeats: 2)
        let mix = try engine.render(frames: 48_000 * 2)
        let (first, last) = try #require(extent(mix))
        #expect(first == 0)
        #expect(abs(last + 1 - 3 * 24_000) <= 256, "three passes of 0.5 s: \(last + 1) frames")
    }
}
