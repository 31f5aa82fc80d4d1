import Foundation
import SoundStationTesting
import Testing

@testable import SoundStation

/// Tweens measured on rendered samples: a constant signal's level follows each easing's formula to
/// within 1e-3 of full scale, for a voice and a bus; pan, pitch, the music's layers and a clock's
/// tempo follow theirs; bad names and values are named errors.
@Suite struct TweenTests {
    static let rate = 48_000

    /// An offline engine and a looping mono buffer of constant value (its rendered level is the gain).
    func engine() throws -> (AudioEngine, SoundBuffer) {
        let engine = try AudioEngine(output: .offline(sampleRate: Self.rate, channels: 2))
        let constant = PCMAudio(
            sampleRate: Self.rate, channels: 1, samples: [Float](repeating: 0.5, count: 4_800))
        return (engine, try engine.makeBuffer(constant, name: "constant", loopPoints: 0..<4_800))
    }

    /// The formula the issue names, written out here (not through ``Easing/progress(_:rising:)``).
    static func formula(_ easing: Easing, _ t: Double, rising: Bool) -> Double {
        switch easing {
        case .linear: t
        case .inQuad: t * t
        case .outQuad: 1 - (1 - t) * (1 - t)
        case .inOutQuad: t < 0.5 ? 2 * t * t : 1 - (-2 * t + 2) * (-2 * t + 2) / 2
        case .inCubic: t * t * t
        case .outCubic: 1 - (1 - t) * (1 - t) * (1 - t)
        case .inOutCubic: t < 0.5 ? 4 * t * t * t : 1 - pow(-2 * t + 2, 3) / 2
        case .equalPower: rising ? sin(t * .pi / 2) : 1 - cos(t * .pi / 2)
        }
    }

    /// The largest distance, over the whole render, between the rendered level (as a part of full
    /// scale) and the tween's formula from `from` to `to`, starting at frame `start` for `length`.
    func largestError(
        _ mix: PCMAudio, full: Float, easing: Easing, from: Double, to: Double, start: Int, length: Int
    ) -> Double {
        var largest = 0.0
        for frame in 0..<mix.frameCount {
            let t = min(max(Double(frame - start) / Double(length), 0), 1)
            let expected = from + (to - from) * Self.formula(easing, t, rising: to >= from)
            largest = max(largest, abs(Double(mix.samples[frame * 2] / full) - expected))
        }
        return largest
    }

    @Test(arguments: Easing.allCases)
    func aVoicesVolumeFollowsEachEasing(easing: Easing) throws {
        let (engine, buffer) = try engine()
        let voice = try #require(try engine.play(buffer, options: PlayOptions(volume: 1, loop: true)))
        let full = try engine.render(frames: 1_000).samples[0]
        #expect(full > 0.2)
        // Rising for the first half of the cases, falling for the rest; starts off the quantum grid.
        let rising = Easing.allCases.firstIndex(of: easing)! % 2 == 0
        try engine.setVolume(0, for: voice, tween: Tween(.zero))
        _ = try engine.render(frames: 500)
        if !rising { try engine.setVolume(1, for: voice, tween: Tween(.zero)) }
        _ = try engine.render(frames: 500)
        let (from, to) = rising ? (0.0, 1.0) : (1.0, 0.0)
        try engine.setVolume(
            Float(to), for: voice,
            tween: Tween(.milliseconds(500), easing: easing, start: .at(.milliseconds(50))))
        let mix = try engine.render(frames: 36_000)
        // The render began at frame 2000; the tween at frame 2400, 24000 frames long.
        let error = largestError(
            mix, full: full, easing: easing, from: from, to: to, start: 400, length: 24_000)
        #expect(error < 1e-3, "\(easing) \(rising ? "rising" : "falling"): off by \(error) of full scale")
        engine.shutdown()
    }

    @Test func aBusVolumeFollowsItsEasing() throws {
        let (engine, buffer) = try engine()
        _ = try engine.play(buffer, options: PlayOptions(volume: 1, loop: true))
        let full = try engine.render(frames: 1_000).samples[0]
        try engine.setVolume(0.25, for: .effects, tween: Tween(.milliseconds(300), easing: .inOutCubic))
        let mix = try engine.render(frames: 24_000)
        let error = largestError(
            mix, full: full, easing: .inOutCubic, from: 1, to: 0.25, start: 0, length: 14_400)
        #expect(error < 1e-3, "the effects bus is off by \(error)")
        #expect(engine.volume(of: .effects) == 0.25)
        engine.shutdown()
    }

    @Test func aPanAndAPitchFollowTheirTweens() throws {
        let (engine, buffer) = try engine()
        let voice = try #require(try engine.play(buffer, options: PlayOptions(loop: true)))
        let centre = try engine.render(frames: 1_000)
        try engine.setPan(1, for: voice, tween: Tween(.milliseconds(200)))
        let panned = try engine.render(frames: 12_000)
        // Centred, both sides are equal; after the tween, all of it is on the right.
        #expect(abs(centre.samples[0] - centre.samples[1]) < 1e-6)
        #expect(abs(panned.samples[11_000 * 2]) < 1e-4 && panned.samples[11_000 * 2 + 1] > centre.samples[1])
        // Half way (a linear pan), the left is between its centre level and silence.
        let left = panned.samples[4_800 * 2]
        #expect(left > 1e-3 && left < centre.samples[0] - 1e-3, "left at half way: \(left)")

        let tone = try engine.makeBuffer(Signals.sine(frequency: 1_000, seconds: 1), name: "tone")
        engine.stop(voice)
        let sung = try #require(try engine.play(tone, options: PlayOptions(loop: true)))
        try engine.setPitch(2, for: sung, tween: Tween(.milliseconds(400), easing: .outQuad))
        let mix = try engine.render(frames: 28_800)
        for (frames, expected) in [
            (9_120..<10_080, 1_000 * (1 + Self.formula(.outQuad, 0.5, rising: true))),
            (24_000..<28_800, 2_000.0),
        ] {
            let measured = AudioAnalysis.zeroCrossingFrequency(mix, frames: frames)
            #expect(
                abs(measured / expected - 1) < 0.02,
                "pitch over \(frames): \(measured) Hz, expected \(expected)")
        }
        engine.shutdown()
    }

    @Test func aClocksTempoFollowsItsEasingAndItsBeatsAreTheIntegral() async throws {
        let (engine, _) = try engine()
        let clock = try MusicClock(bpm: 120)
        clock.start(on: engine)
        _ = try engine.render(frames: 1_000)  // past the first bar line, so the next is at 2 s
        try clock.setTempo(
            180, tween: Tween(.seconds(2), easing: .inOutQuad, start: .music(.nextBar, of: clock)))
        _ = try engine.render(frames: Self.rate * 3 - 1_000)  // the bar at 2 s, half of the glide gone by 3 s
        #expect(abs(clock.bpm - 150) < 1e-6, "half way through an in-out glide: \(clock.bpm)")
        // Beats: 4 by the bar, then ∫ (120 + 60 · inOutQuad) over the first second / 60.
        let glided = (120 + 60 * 1.0 / 6) / 60
        let position = try #require(clock.position())
        let beats = Double((position.bar - 1) * 4 + position.beat - 1) + position.fraction
        #expect(abs(beats - (4 + glided)) < 1e-6, "\(beats) beats, expected \(4 + glided)")
        engine.shutdown()
    }

    @Test func unknownEasingsAndBadValuesAreNamedErrors() throws {
        #expect(throws: TweenError.unknownEasing("bouncy")) { try Easing(named: "bouncy") }
        #expect(try Easing(named: "in-out-cubic") == .inOutCubic)
        let message = TweenError.unknownEasing("bouncy").description
        #expect(message.contains("\"bouncy\"") && message.contains("equal-power"), "\(message)")
        let (engine, buffer) = try engine()
        let voice = try #require(try engine.play(buffer))
        #expect(throws: TweenError.invalidDuration(.seconds(-1))) {
            try engine.setVolume(1, for: voice, tween: Tween(.seconds(-1)))
        }
        #expect(throws: TweenError.self) { try engine.setPan(2, for: voice, tween: Tween(.seconds(1))) }
        #expect(throws: TweenError.self) { try engine.setVolume(-1, for: .music, tween: Tween(.seconds(1))) }
        let clock = try MusicClock(bpm: 100)
        clock.start(on: engine)
        #expect(throws: TweenError.music(.noMarkers(marker: "x"))) {
            try engine.setVolume(
                1, for: voice, tween: Tween(.seconds(1), start: .music(.marker("x"), of: clock)))
        }
        engine.shutdown()
    }
}
