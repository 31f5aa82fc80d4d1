import Foundation
import SoundStation
import SoundStationTesting
import Testing

@testable import StarfallCore

/// Starfall in musical time, measured in the autoplay render: the game track starts on a bar line
/// of the menu's, the level-up stinger on a beat of the game's, and the game track's layers join
/// as the level rises, each at the gain its intensity gives it.
@Suite struct GameMusicTimeTests {
    static let rate = Autoplay.sampleRate

    @Test func theGameTrackStartsOnTheNextBarOfTheMenus() async throws {
        let run = try await Fixtures.autoplay.value
        let model = try MixModel(summary: run.summary, frames: run.audio.frameCount)
        let music = run.summary.music
        let index = try #require(music.firstIndex { $0.from == "main" && $0.to == "game" })
        let menu = music[index - 1]
        let change = music[index]
        let track = try #require(model.tracks["main"])
        let bar = track.framesPerBeat(rate: Self.rate) * Double(track.beatsPerBar)
        let (menuStart, asked, at) = (
            MixModel.frame(menu.at), MixModel.frame(change.asked), MixModel.frame(change.at)
        )
        let bars = Double(at - menuStart) / bar
        #expect(bars == bars.rounded(), "the switch at frame \(at) is \(bars) bars into the menu track")
        #expect(at >= asked && Double(at - asked) < bar, "asked at \(asked), switched at \(at)")
        #expect(
            change.bar == Int(bars) + 1 && change.beat == 1,
            "reported bar \(change.bar ?? -1) beat \(change.beat ?? -1)")
        // The new track is heard from exactly that frame: the menu's before, the game's after.
        let busy = model.busyFrames(run.summary, frames: run.audio.frameCount)
        for (range, name) in [((at - 2400)..<at, "main"), (at..<(at + 2400), "game")] {
            var largest: Float = 0
            for frame in range where !busy[frame] {
                for channel in 0..<2 {
                    let expected = try #require(model.music(frame: frame, channel: channel))
                    largest = max(largest, abs(run.audio.samples[frame * 2 + channel] - expected))
                }
            }
            #expect(largest < 1e-4, "\(name) around the switch differs by \(largest)")
        }
        // One frame late would be heard: the game track shifted by one frame does not fit.
        var late = model
        let span = try #require(late.spans.firstIndex { $0.start == at })
        late.spans[span].start += 1
        var shifted: Float = 0
        for frame in (at + 1)..<(at + 2400) where !busy[frame] {
            let expected = try #require(late.music(frame: frame, channel: 0))
            shifted = max(shifted, abs(run.audio.samples[frame * 2] - expected))
        }
        #expect(shifted > 1e-3, "a one-frame shift fits as well (\(shifted))")
    }

    @Test func theLevelUpStingerLandsOnABeatOfTheGameTrack() async throws {
        let run = try await Fixtures.autoplay.value
        let model = try MixModel(summary: run.summary, frames: run.audio.frameCount)
        let start = try #require(run.summary.music.first { $0.to == "game" })
        let beat = try #require(model.tracks["game"]).framesPerBeat(rate: Self.rate)
        let stingers = run.summary.effects.filter { $0.name == Effect.levelUp.rawValue }
        #expect(stingers.count >= 2, "only \(stingers.count) level-ups in the render")
        let levelUps = run.summary.intensity.dropFirst().map(\.at)
        for (stinger, asked) in zip(stingers, levelUps) {
            let frame = MixModel.frame(stinger.at)
            let beats = Double(frame - MixModel.frame(start.at)) / beat
            #expect(
                beats == beats.rounded(), "level-up at frame \(frame) is \(beats) beats into the game track")
            let wait = frame - MixModel.frame(asked)
            #expect(wait >= 0 && Double(wait) < beat, "level-up asked at \(asked) s waited \(wait) frames")
        }
        // That it is heard from exactly that frame is the effects test's fit (5 ms late fits worse).
    }

    @Test func layersJoinAsTheLevelRises() async throws {
        let run = try await Fixtures.autoplay.value
        let model = try MixModel(summary: run.summary, frames: run.audio.frameCount)
        let busy = model.busyFrames(run.summary, frames: run.audio.frameCount)
        let game = try #require(model.spans.first { $0.track == "game" })
        let track = try #require(model.tracks["game"])
        #expect(track.layers.count >= 4, "the game track has \(track.layers.count) layers")
        var measured = 0
        var joined: Set<Int> = []
        // Up to a second where each intensity holds, fitted layer by layer on frames free of effects.
        for (index, span) in model.intensities.enumerated() {
            let next = index + 1 < model.intensities.count ? model.intensities[index + 1].start : game.end
            let (lower, upper) = (
                max(span.settled, game.start), min(max(span.settled, game.start) + Self.rate, next, game.end)
            )
            guard upper - lower >= Self.rate / 4 else { continue }
            let frames = (lower..<upper).filter { !busy[$0] }
            guard frames.count >= Self.rate / 20 else { continue }
            for channel in 0..<2 {
                let regressors = track.layers.indices.map { layer in
                    frames.map { model.layers(of: game, frame: $0, channel: channel)[layer] }
                }
                let mix = frames.map { Double(run.audio.samples[$0 * 2 + channel]) }
                let fit = LeastSquares.fit(regressors, to: mix)
                #expect(fit.explained > 0.999, "intensity \(span.value): the mix is not the layers")
                for (layer, weight) in fit.weights.enumerated() {
                    let gain = Double(track.layers[layer].stem?.gain(at: span.value) ?? 1)
                    #expect(
                        abs(weight - gain) < 0.01,
                        "intensity \(span.value), layer \(layer): weight \(weight), expected \(gain)")
                    if gain == 1 { joined.insert(layer) }
                }
            }
            measured += 1
        }
        #expect(measured >= 2, "only \(measured) intensities held long enough to measure")
        #expect(joined.count >= 3, "only layers \(joined.sorted()) were heard joining")
    }

    @Test func beatsPulseTheScreen() {
        var pulse = BeatPulse()
        let beat = MusicBeat(track: "game", bar: 2, beat: 1, time: .seconds(1))
        pulse.tick(heard: (0, nil))
        #expect(pulse.level == 0)
        pulse.tick(heard: (1, beat))
        #expect(pulse.level == 1 && pulse.isDownbeat)
        for _ in 0..<BeatPulse.fadeTicks { pulse.tick(heard: (1, beat)) }
        #expect(pulse.level == 0)
        pulse.tick(heard: (2, MusicBeat(track: "game", bar: 2, beat: 2, time: .seconds(1.4))))
        #expect(pulse.level == 1 && !pulse.isDownbeat)
    }

    @Test func beatsAreHeardOnTheGridOffline() async throws {
        let catalogue = try Catalogue(assetsRoot: Fixtures.assetsRoot)
        let engine = try AudioEngine(output: .offline(sampleRate: Self.rate, channels: 2))
        let sound = SoundSystem(engine: engine, catalogue: catalogue)
        let loaded = try await sound.bank.preload([Music.main.rawValue])
        defer { loaded.unload() }
        let audio = GameAudio(sound: sound)
        audio.handle(.sceneChanged(.menu), at: 0)
        _ = try engine.render(frames: Self.rate * 2)
        let heard = audio.heardBeats
        // 125 bpm: beats at 0, 0.48, 0.96, 1.44 and 1.92 s.
        #expect(heard.count == 5, "\(heard.count) beats in 2 s at 125 bpm")
        let last = try #require(heard.last)
        #expect(last.track == "main" && last.bar == 2 && last.beat == 1)
        #expect(last.time == .frames(92_160, rate: 48_000), "at \(last.time)")
        engine.shutdown()
    }
}
