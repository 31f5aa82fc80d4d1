import Foundation
import SoundStation
import SoundStationTesting
import Testing

@testable import StarfallCore

/// The GameAudio mapping measured in an autoplay render: the scene music and every effect of the
/// summary are found in the samples, at their frames, and nothing else is there.
@Suite struct GameAudioTests {
    static let rate = Autoplay.sampleRate

    @Test func theSummaryTellsTheWholeStory() async throws {
        let summary = try await Fixtures.autoplay.value.summary
        let scenes = summary.scenes.map { "\($0.name):\($0.music ?? "-")" }
        #expect(Array(scenes.prefix(4)) == ["menu:main", "game:game", "game-over:-", "menu:main"])
        #expect(summary.scenes.first?.at == 0)
        let names = Set(summary.effects.map(\.name))
        for wanted in ["click", "reward", "miss", "bomb-tick", "explosion", "hit", "level-up", "upgrade"] {
            #expect(names.contains(wanted), "no \(wanted) in \(names.sorted())")
        }
        // Every effect starts on a game tick but the level-up stinger, which waits for the next beat.
        for effect in summary.effects where effect.name != Effect.levelUp.rawValue {
            let ticks = effect.at * 60
            #expect(abs(ticks - ticks.rounded()) < 1e-4, "\(effect.name) at \(effect.at) is not on a tick")
        }
        let switches = summary.music.map { "\($0.from ?? "-")>\($0.to ?? "-")" }
        #expect(Array(switches.prefix(4)) == ["->main", "main>game", "game>-", "->main"])
        let times = summary.effects.map(\.at)
        #expect(Set(times).count < times.count, "several effects fire in the same frame")
    }

    @Test func theMusicIsEachSceneTrackFromItsStart() async throws {
        let run = try await Fixtures.autoplay.value
        let model = try MixModel(summary: run.summary, frames: run.audio.frameCount)
        let busy = model.busyFrames(run.summary, frames: run.audio.frameCount)
        var checked = 0
        var largest: Float = 0
        for frame in 0..<run.audio.frameCount where !busy[frame] {
            for channel in 0..<2 {
                guard let music = model.music(frame: frame, channel: channel) else { continue }
                largest = max(largest, abs(run.audio.samples[frame * 2 + channel] - music))
                checked += 1
            }
        }
        #expect(largest < 1e-4, "music differs from the decoded tracks by \(largest)")
        #expect(checked > run.audio.frameCount / 2, "only \(checked / 2) frames free of effects")
        // The two scene starts the issue names: the menu's "main" from frame 0, "game" from the game's start.
        for span in model.spans.prefix(2) {
            let quiet = busy[span.start...].firstIndex(of: true) ?? span.end
            #expect(quiet - span.start >= Self.rate / 4, "\(span.track ?? "-") has under 0.25 s to itself")
            #expect(largestDifference(run.audio, model, frames: span.start..<quiet) < 1e-4)
        }
    }

    @Test func everyEffectIsInTheMixAtItsFrame() async throws {
        let run = try await Fixtures.autoplay.value
        let model = try MixModel(summary: run.summary, frames: run.audio.frameCount)
        for index in run.summary.effects.indices {
            let effect = run.summary.effects[index]
            let exact = fit(index, run: run, model: model, shift: 0)
            let late = fit(index, run: run, model: model, shift: Self.rate / 200)
            let gain = hypot(exact.weights[0], exact.weights[1])
            let expected = Double(model.effects[effect.name]?.volume ?? 1) * Double(effect.volume)
            let label = "\(effect.name) at \(effect.at) s"
            // Panned mono reaches the two channels at 0.84 (centre) to 1 (hard side) of its volume.
            #expect((0.7...1.1).contains(gain / expected), "\(label): gain \(gain), expected \(expected)")
            #expect(exact.explained > 0.9, "\(label): the mix is not the summary's sounds")
            #expect(late.explained < exact.explained - 0.02, "\(label): 5 ms late fits as well")
        }
    }

    private func largestDifference(_ audio: PCMAudio, _ model: MixModel, frames: Range<Int>) -> Float {
        var largest: Float = 0
        for frame in frames {
            for channel in 0..<2 {
                let music = model.music(frame: frame, channel: channel) ?? .infinity
                largest = max(largest, abs(audio.samples[frame * 2 + channel] - music))
            }
        }
        return largest
    }

    /// Fits the mix over the first 50 ms of effect `index` with every sound playing there, on each
    /// channel; `shift` moves that effect's copy later, to show the fit depends on its exact frame.
    private func fit(_ index: Int, run: AutoplayRun, model: MixModel, shift: Int)
        -> (weights: [Double], explained: Double)
    {
        let effects = run.summary.effects
        let target = effects[index]
        let start = MixModel.frame(target.at)
        let end = min(
            run.audio.frameCount,
            start + min(Self.rate / 20, model.length(of: target.name, pitch: target.pitch)))
        let window = start..<end
        // One copy per distinct sound: equal triggers in one frame are one voice (coalesced).
        var sounds: [(name: String, start: Int, pitch: Float)] = []
        for effect in effects {
            let begin = MixModel.frame(effect.at) + (effect == target ? shift : 0)
            let length = model.length(of: effect.name, pitch: effect.pitch)
            guard begin < end, begin + length > start else { continue }
            if !sounds.contains(where: {
                $0.name == effect.name && $0.start == begin && $0.pitch == effect.pitch
            }) {
                sounds.append((effect.name, begin, effect.pitch))
            }
        }
        let targetIndex = sounds.firstIndex { $0.name == target.name && $0.start == start + shift } ?? 0
        var weights: [Double] = []
        var explained = 1.0
        for channel in 0..<2 {
            var mix: [Double] = []
            var regressors = sounds.map { sound in
                window.map { model.effect(sound.name, offset: $0 - sound.start, pitch: sound.pitch) }
            }
            // Where the music fades out or its layers glide (curves of the engine's own), each of its
            // layers is fitted as a straight ramp: over 50 ms that describes it.
            var unknown: [[Double]] = []
            for (offset, frame) in window.enumerated() {
                let sample = Double(run.audio.samples[frame * 2 + channel])
                if let music = model.music(frame: frame, channel: channel) {
                    mix.append(sample - Double(music))
                } else {
                    mix.append(sample)
                    for (layer, value) in model.unknownMusic(frame: frame, channel: channel).enumerated() {
                        if unknown.count <= layer {
                            unknown.append([Double](repeating: 0, count: window.count))
                        }
                        unknown[layer][offset] = value
                    }
                }
            }
            for layer in unknown {
                regressors.append(layer)
                regressors.append(
                    layer.enumerated().map { $0.element * Double($0.offset) / Double(window.count) })
            }
            let result = LeastSquares.fit(regressors, to: mix)
            weights.append(result.weights[targetIndex])
            explained = min(explained, result.explained)
        }
        return (weights, explained)
    }
}
