import Foundation
import SoundStation
import SoundStationTesting
import StarfallCore
import Testing

/// Starfall's use of space: effects at their column, bombs quiet at the top and loud on the paddle,
/// the pause menu muffling the music instead of cutting it.
@Suite struct GameSpaceTests {
    static func audio() async throws -> GameAudio {
        let engine = try AudioEngine(output: .offline(sampleRate: 48_000, channels: 2))
        let sound = SoundSystem(engine: engine, catalogue: try Catalogue(assetsRoot: Fixtures.assetsRoot))
        try await sound.bank.preload().throwIfFailed()
        return GameAudio(sound: sound)
    }

    static func rms(_ audio: PCMAudio, channel: Int) -> Double {
        var sum = 0.0
        for frame in 0..<audio.frameCount {
            let value = Double(audio.samples[frame * 2 + channel])
            sum += value * value
        }
        return (sum / Double(max(audio.frameCount, 1))).squareRoot()
    }

    @Test func effectsAreHeardAtTheirColumn() async throws {
        let audio = try await Self.audio()
        let engine = audio.sound.engine
        let width = Rules.standard.fieldWidth
        audio.handle([.starCaught(StarCatch(x: width * 0.1, points: 10, golden: false, streak: 1))])
        let left = try engine.render(frames: 12_000)
        #expect(Self.rms(left, channel: 0) > 4 * Self.rms(left, channel: 1))
        _ = try engine.render(frames: 96_000)  // the reward's end
        audio.handle([.starMissed(x: width * 0.9)])
        let right = try engine.render(frames: 12_000)
        #expect(Self.rms(right, channel: 1) > 4 * Self.rms(right, channel: 0))
    }

    @Test func aBombIsQuietAtTheTopAndLoudOnThePaddle() async throws {
        let audio = try await Self.audio()
        let x = Rules.standard.fieldWidth / 2
        let top = try #require(audio.handle(.bombSpawned(x: x)).first)
        let bottom = try #require(audio.handle(.bombDodged(x: x)).first)
        guard case .effect(_, _, let far, _, _) = top, case .effect(_, _, let near, _, _) = bottom else {
            Issue.record("not effects")
            return
        }
        // Reported as heard: volume times the distance model's gain (0.6 and 0.5 as played).
        #expect(far / 0.6 < 0.4, "at the top: \(far / 0.6)")
        #expect(abs(near / 0.5 - 1) < 1e-6, "on the paddle: \(near / 0.5)")
    }

    @Test func aFallingBombTicksLouderAsItNearsThePaddle() async throws {
        let audio = try await Self.audio()
        let engine = audio.sound.engine
        var levels: [Double] = []
        var reported: [Float] = []
        for y in stride(from: 10.0, through: 210, by: 50) {
            let bomb = FallingThing(id: 0, kind: .bomb, x: Rules.standard.fieldWidth / 2, y: y, speed: 1)
            for case .effect(_, _, let volume, _, _) in audio.follow([bomb], tick: GameAudio.fuseTicks) {
                reported.append(volume)
            }
            let mix = try engine.render(frames: 24_000)
            levels.append(Self.rms(mix, channel: 0))
        }
        #expect(reported.count == levels.count)
        // Each tick louder than the last, as reported and as rendered (the rendered level is the
        // reported volume times the sound's, the same for every tick).
        for index in 1..<levels.count {
            #expect(levels[index] > levels[index - 1] * 1.05, "tick \(index): \(levels)")
            #expect(reported[index] > reported[index - 1], "tick \(index): \(reported)")
            let rendered = levels[index] / levels[0]
            let expected = Double(reported[index] / reported[0])
            #expect(abs(20 * log10(rendered / expected)) < 0.5, "tick \(index): \(rendered) vs \(expected)")
        }
        // Off-beat ticks play nothing.
        let bomb = FallingThing(id: 0, kind: .bomb, x: 10, y: 10, speed: 1)
        #expect(audio.follow([bomb], tick: GameAudio.fuseTicks + 1).isEmpty)
    }

    @Test func thePauseMenuMufflesTheMusic() async throws {
        // The same game twice, paused at 1 s in one of them: the music is the same, so the paused
        // render can be compared with the other over the same frames.
        func render(pause: Bool) async throws -> (PCMAudio, GameAudio) {
            let audio = try await Self.audio()
            let engine = audio.sound.engine
            audio.handle([.sceneChanged(.game)])
            _ = try engine.render(frames: 48_000)
            if pause { audio.handle([.paused]) }
            return (try engine.render(frames: 96_000), audio)
        }
        let (playing, _) = try await render(pause: false)
        let (paused, audio) = try await render(pause: true)
        let engine = audio.sound.engine
        // After the filter's latency and its 300 ms glide.
        let frames = 24_000..<96_000
        let cutoff = 700.0
        func change(_ band: ClosedRange<Double>) -> Double {
            10
                * log10(
                    AudioAnalysis.bandEnergy(paused, band: band, frames: frames)
                        / AudioAnalysis.bandEnergy(playing, band: band, frames: frames))
        }
        let volume = 20 * log10(Double(GameAudio.pausedMusic.volume))
        let above = change((4 * cutoff)...24_000) - volume
        let below = change(20...(cutoff / 2)) - volume
        #expect(above <= -20, "music above \(4 * cutoff) Hz under the pause menu: \(above) dB")
        #expect(abs(below) <= 1.5, "music below \(cutoff / 2) Hz under the pause menu: \(below) dB")
        // Still heard, not cut.
        #expect(AudioAnalysis.rms(paused, frames: frames) > 0.1 * AudioAnalysis.rms(playing, frames: frames))
        #expect(engine.filter(of: .music) == GameAudio.pausedMusic.filter)
        audio.handle([.resumed])
        #expect(engine.filter(of: .music) == nil)
        #expect(engine.volume(of: .music) == 1)
    }
}
