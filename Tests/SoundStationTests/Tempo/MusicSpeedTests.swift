import Foundation
import SoundStationTesting
import Testing

@testable import SoundStation

/// Music at another speed without another pitch, measured on offline renders: the tone keeps its
/// frequency and the track its new length, stems stay aligned to the sample, the grid follows, and a
/// glide makes no click.
@Suite struct MusicSpeedTests {
    static let tone = Signals.sine(frequency: 440, seconds: 2, amplitude: 0.5)

    /// The frame after the last one louder than `threshold` on the left channel.
    static func end(_ audio: PCMAudio, threshold: Float = 0.05) -> Int {
        var frame = audio.frameCount
        while frame > 0, abs(audio.samples[(frame - 1) * audio.channels]) < threshold { frame -= 1 }
        return frame
    }

    /// A system with the tone as a music track, and its assets (kept alive: a stream reads the file).
    static func toneSystem(streamed: Bool) async throws -> (SoundSystem, TestAssets) {
        let assets = try TestAssets()
        try assets.addWAV(
            "tone", tone, kind: "music", extra: "\"loop\": false" + (streamed ? ", \"stream\": true" : ""))
        return (try await assets.system(), assets)
    }

    @Test(arguments: [1.25, 0.8], [false, true])
    func aToneKeepsItsPitchAndTheTrackItsNewLength(speed: Double, streamed: Bool) async throws {
        let (system, assets) = try await Self.toneSystem(streamed: streamed)
        defer { withExtendedLifetime(assets) {} }
        try system.music.setSpeed(speed)
        #expect(system.music.speed == speed)
        try system.music.play("tone")
        let mix = try system.engine.render(frames: 4 * 48_000)
        let length = Double(Self.end(mix)) / 48_000
        #expect(abs(length - 2 / speed) < 0.02, "speed \(speed): lasted \(length) s")
        let middle = Int(0.2 * 48_000)..<Int((2 / speed - 0.2) * 48_000)
        let frequency = AudioAnalysis.zeroCrossingFrequency(mix, frames: middle)
        #expect(abs(frequency - 440) < 1, "speed \(speed): \(frequency) Hz")
        // Nearly all the energy stays around 440 Hz: no second tone, no warble.
        let near = AudioAnalysis.bandEnergy(mix, band: 400...480, frames: middle)
        let all = AudioAnalysis.bandEnergy(mix, band: 20...20_000, frames: middle)
        #expect(near > 0.95 * all, "speed \(speed): \(near) of \(all) around 440 Hz")
    }

    @Test func stemsStretchedMidTrackStayAlignedToTheSample() async throws {
        // The track has its clicks on the left, the stem the same clicks on the right: aligned
        // stems render the same samples on both sides.
        var clicks = [Float](repeating: 0, count: 2 * 96_000)
        for start in stride(from: 1_000, to: 96_000, by: 11_987) {
            for i in 0..<240 { clicks[(start + i) * 2] = 0.6 * sinf(Float(i) * 0.3) * Float(240 - i) / 240 }
        }
        let track = PCMAudio(sampleRate: 48_000, channels: 2, samples: clicks)
        var right = [Float](repeating: 0, count: clicks.count)
        for frame in 0..<96_000 { right[frame * 2 + 1] = clicks[frame * 2] }
        let assets = try TestAssets()
        try WAVWriter.write(
            PCMAudio(sampleRate: 48_000, channels: 2, samples: right), toFileAt: "\(assets.root)/stem.wav",
            format: .float32)
        try assets.addWAV(
            "layered", track, kind: "music", extra: "\"bpm\": 120, \"stems\": [{\"path\": \"stem.wav\"}]")
        let system = try await assets.system()
        try system.music.play("layered")
        system.engine.schedule(at: .seconds(0.5)) { try? system.music.setSpeed(1.2) }
        let mix = try system.engine.render(frames: 5 * 48_000)
        var largest: Float = 0
        var loudest: Float = 0
        for frame in 0..<mix.frameCount {
            largest = max(largest, abs(mix.samples[frame * 2] - mix.samples[frame * 2 + 1]))
            loudest = max(loudest, abs(mix.samples[frame * 2 + 1]))
        }
        #expect(loudest > 0.3, "the stem was not heard")
        #expect(largest < 1e-5, "the stems are apart by up to \(largest)")
        // The clicks come 1.2 times as often after the change: 11 987 frames apart become 9 989.
        let first = try #require(AudioAnalysis.onset(mix, threshold: 0.05, from: 3 * 48_000))
        let second = try #require(AudioAnalysis.onset(mix, threshold: 0.05, from: first + 2_000))
        // Within the stretcher's own jitter: it cuts where the waveform fits, 10 ms either way.
        #expect(abs(second - first - 9_989) < 480, "clicks \(second - first) frames apart")
    }

    @Test func aSwitchOnTheNextBarAfterASpeedChangeLandsOnThatBarsFrame() async throws {
        let assets = try TestAssets()
        let silence = PCMAudio(
            sampleRate: 48_000, channels: 1, samples: [Float](repeating: 0, count: 8 * 48_000))
        try assets.addWAV("main", silence, kind: "music", extra: "\"bpm\": 120, \"beatsPerBar\": 4")
        let game = Signals.sine(frequency: 440, seconds: 2, amplitude: 0.5, phase: .pi / 2)
        try assets.addWAV("game", game, kind: "music", extra: "\"bpm\": 120")
        let system = try await assets.system()
        try system.music.play("main")
        system.engine.schedule(at: .seconds(0.5)) { try? system.music.setSpeed(1.25) }
        _ = try system.engine.render(frames: 48_000)
        // Bar 2 begins 2 s into the track: 0.5 s at speed 1, then 1.5 s of track in 1.2 s.
        #expect(try system.music.time(of: .nextBar) == .frames(81_600, rate: 48_000))
        #expect(
            system.music.musicalPosition(at: .frames(81_600, rate: 48_000))
                == MusicPosition(bar: 2, beat: 1, fraction: 0))
        #expect(
            system.music.musicalPosition(at: .seconds(1.1)) == MusicPosition(bar: 1, beat: 3, fraction: 0.5))
        try system.music.play("game", from: .restart, at: .nextBar)
        let mix = try system.engine.render(frames: 48_000)
        let onset = try #require(AudioAnalysis.onset(mix, threshold: 0.05))
        #expect(abs(onset + 48_000 - 81_600) <= 48, "the new track began at \(onset + 48_000)")
        #expect(system.music.current == "game")
    }

    @Test func aSpeedGlideMakesNoClick() async throws {
        let assets = try TestAssets()
        try assets.addWAV("tone", Self.tone, kind: "music", extra: "\"bpm\": 120")
        let system = try await assets.system()
        try system.music.play("tone")
        system.engine.schedule(at: .seconds(0.5)) { try? system.music.setSpeed(1.5, tween: .seconds(1)) }
        let mix = try system.engine.render(frames: 3 * 48_000)
        let own = AudioAnalysis.largestJump(Self.tone, frames: 0..<48_000)
        let jump = AudioAnalysis.largestJump(mix, frames: 1_000..<3 * 48_000)
        #expect(jump <= own * 1.2, "a jump of \(jump) where the tone's own is \(own)")
        let frequency = AudioAnalysis.zeroCrossingFrequency(mix, frames: 2 * 48_000..<3 * 48_000)
        #expect(abs(frequency - 440) < 1, "\(frequency) Hz after the glide")
        // The grid glided too: 0.5 s at 1, then 1 s from 1 to 1.5 (1.25 s of track), then 1.5.
        let position = try #require(system.music.musicalPosition(at: .seconds(2)))
        let beats = Double((position.bar - 1) * 4 + position.beat - 1) + position.fraction
        #expect(abs(beats - (0.5 + 1.25 + 0.75) * 2) < 1e-6, "\(position)")
    }

    @Test func badSpeedsAreErrorsNamingTheValue() async throws {
        let (system, _) = try await Self.toneSystem(streamed: false)
        #expect(throws: MusicError.invalidSpeed(3)) { try system.music.setSpeed(3) }
        #expect(throws: MusicError.invalidSpeed(0.25)) { try system.music.setSpeed(0.25) }
        #expect(throws: MusicError.invalidGlide(.seconds(-1))) {
            try system.music.setSpeed(1.5, tween: .seconds(-1))
        }
        #expect("\(MusicError.invalidSpeed(3))".contains("3.0"))
        #expect(system.music.speed == 1)
    }
}

/// A pitch shift without a change of speed, through the same stretcher.
@Suite struct PitchShiftTests {
    @Test(arguments: [12.0, -12.0])
    func anOctaveShiftDoublesOrHalvesTheFrequencyAndKeepsTheLength(semitones: Double) async throws {
        let assets = try TestAssets()
        try assets.addWAV("tone", Signals.sine(frequency: 440, seconds: 1, amplitude: 0.5))
        let system = try await assets.system()
        var options = PlayOptions()
        options.pitchShift = semitones
        let buffer = try #require(system.bank.buffer(named: "tone"))
        try system.engine.play(buffer, options: options)
        let mix = try system.engine.render(frames: 2 * 48_000)
        let expected = 440 * (semitones > 0 ? 2.0 : 0.5)
        let frequency = AudioAnalysis.zeroCrossingFrequency(mix, frames: 4_800..<40_000)
        #expect(abs(frequency - expected) < 1, "\(frequency) Hz")
        let length = Double(MusicSpeedTests.end(mix)) / 48_000
        #expect(abs(length - 1) < 0.02, "lasted \(length) s")
    }

    @Test func aShiftOutOfRangeIsAnErrorNamingIt() async throws {
        let assets = try TestAssets()
        try assets.addWAV("tone", Signals.sine(frequency: 440, seconds: 1))
        let system = try await assets.system()
        var options = PlayOptions()
        options.pitchShift = 30
        let buffer = try #require(system.bank.buffer(named: "tone"))
        #expect(
            throws: AudioEngineError.invalidArgument(
                name: "pitchShift", value: "30.0", expected: "-24...24 semitones, 0 for none")
        ) { try system.engine.play(buffer, options: options) }
    }
}
