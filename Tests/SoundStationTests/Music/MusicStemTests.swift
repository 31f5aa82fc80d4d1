import SoundStationTesting
import Testing

@testable import SoundStation

/// Layered tracks measured on rendered samples: stems start on the track's frame and stay on it
/// through every loop; intensity sets their gains.
@Suite struct MusicStemTests {
    let base = Signals.stereoTones(left: 220, right: 330, seconds: 2)
    let drums = Signals.noise(seconds: 2, amplitude: 0.25, channels: 2, seed: 11)

    func system(stemExtra: String = "\"from\": 0.5", drums: PCMAudio? = nil) async throws -> (
        SoundSystem, TestAssets
    ) {
        let assets = try TestAssets()
        try WAVWriter.write(drums ?? self.drums, toFileAt: "\(assets.root)/drums.wav", format: .float32)
        try assets.addWAV(
            "layered", base, kind: "music",
            extra: "\"bpm\": 120, \"stems\": [{\"path\": \"drums.wav\", \(stemExtra)}]")
        return (try await assets.system(), assets)
    }

    /// The largest difference between the render over `frames` and the track's file plus `gain`
    /// times the stem's, both started at frame 0 and looping.
    func difference(_ mix: PCMAudio, frames: Range<Int>, stemGain: Float) -> Float {
        var largest: Float = 0
        for frame in frames {
            let source = frame % base.frameCount
            for channel in 0..<2 {
                let expected =
                    base.samples[source * 2 + channel] + stemGain * drums.samples[source * 2 + channel]
                largest = max(largest, abs(mix.samples[frame * 2 + channel] - expected))
            }
        }
        return largest
    }

    @Test func stemsStartOnTheTracksFrameAndStayOnItThroughLoops() async throws {
        let (system, _) = try await system()
        #expect(system.music.intensity == 1)
        try system.music.play("layered")
        let mix = try system.engine.render(frames: 7 * 48_000)
        // Sample for sample the sum, from the first frame and after three loops.
        #expect(difference(mix, frames: 0..<24_000, stemGain: 1) < 1e-5)
        #expect(difference(mix, frames: 6 * 48_000..<7 * 48_000, stemGain: 1) < 1e-5)
        #expect(system.engine.activeVoiceCount == 2)
        system.music.stop()
        _ = try system.engine.render(frames: 0)
        #expect(system.engine.activeVoiceCount == 0)
    }

    @Test func intensityBringsAStemInAboveItsFrom() async throws {
        let (system, _) = try await system()
        try system.music.setIntensity(0.3)
        try system.music.play("layered")
        system.engine.schedule(at: .seconds(1)) {
            try? system.music.setIntensity(0.8, tween: Tween(.seconds(0.5)))
        }
        let mix = try system.engine.render(frames: 3 * 48_000)
        #expect(difference(mix, frames: 0..<48_000, stemGain: 0) < 1e-5)
        #expect(difference(mix, frames: 80_000..<3 * 48_000, stemGain: 1) < 1e-5)
        // Gliding in between, without a step larger than the signals' own.
        let jump = AudioAnalysis.largestJump(mix, frames: 48_000..<80_000)
        #expect(
            jump <= AudioAnalysis.largestJump(drums, frames: 0..<48_000)
                + AudioAnalysis.largestJump(base, frames: 0..<48_000))
        #expect(system.music.intensity == 0.8)
    }

    @Test func aPartialIntensityGivesAPartialGain() async throws {
        let (system, _) = try await system(stemExtra: "\"from\": 0.2, \"full\": 0.6")
        try system.music.setIntensity(0.5)
        try system.music.play("layered")
        let mix = try system.engine.render(frames: 48_000)
        #expect(difference(mix, frames: 1_000..<48_000, stemGain: 0.75) < 1e-4)
    }

    @Test func badStemsAndIntensitiesAreErrors() async throws {
        let (system, _) = try await system()
        #expect(throws: MusicError.invalidIntensity(1.5)) { try system.music.setIntensity(1.5) }
        #expect(throws: MusicError.invalidGlide(.seconds(-1))) {
            try system.music.setIntensity(0.5, tween: Tween(.seconds(-1)))
        }
        do {
            _ = try await self.system(drums: Signals.noise(seconds: 1.5, channels: 2))
            Issue.record("a stem of another length was loaded")
        } catch {
            let message = "\(error)"
            #expect(message.contains("\"stems.0\"") && message.contains("must match"), "\(message)")
        }
    }
}

/// The layers along a tween: the stem's gain follows the easing from the next bar on.
@Suite struct MusicStemTweenTests {
    @Test func aLayerFadesInAlongItsEasingFromTheNextBar() async throws {
        let assets = try TestAssets()
        let base = PCMAudio(sampleRate: 48_000, channels: 2, samples: [Float](repeating: 0, count: 384_000))
        let layer = PCMAudio(
            sampleRate: 48_000, channels: 2, samples: [Float](repeating: 0.25, count: 384_000))
        try WAVWriter.write(layer, toFileAt: "\(assets.root)/pad.wav", format: .float32)
        try assets.addWAV(
            "layered", base, kind: "music",
            extra: "\"bpm\": 120, \"stems\": [{\"path\": \"pad.wav\", \"from\": 0.5}]")
        let system = try await assets.system()
        try system.music.setIntensity(0)
        try system.music.play("layered")
        _ = try system.engine.render(frames: 10_000)
        // 120 bpm: the next bar is at 2 s; the stem glides in over 1 s, out-cubic.
        try system.music.setIntensity(
            1, tween: Tween(.seconds(1), easing: .outCubic, start: .music(.nextBar, of: system.music)))
        let mix = try system.engine.render(frames: 4 * 48_000)
        var largest: Float = 0
        for frame in 0..<mix.frameCount {
            let t = min(max(Double(frame + 10_000 - 96_000) / 48_000, 0), 1)
            let expected = 0.25 * Float(1 - (1 - t) * (1 - t) * (1 - t))
            largest = max(largest, abs(mix.samples[frame * 2] - expected))
        }
        #expect(largest < 1e-3 * 0.25, "the layer is off its curve by \(largest)")
        #expect(throws: MusicError.invalidIntensity(2)) {
            try system.music.setIntensity(2, tween: Tween(.seconds(1)))
        }
    }
}
