import Foundation
import SoundStation
import Testing

@testable import StarfallCore

@Suite struct AutoplaySummaryTests {
    @Test func numbersHaveAtMostSixDecimalsAndNoLocale() {
        #expect(AutoplaySummary.number(0) == "0.0")
        #expect(AutoplaySummary.number(3.2125) == "3.2125")
        #expect(AutoplaySummary.number(1.0 / 60) == "0.016667")
        #expect(AutoplaySummary.number(-0.437_017_2) == "-0.437017")
        #expect(AutoplaySummary.number(35) == "35.0")
    }

    @Test func theJSONIsOneObjectWithScenesMusicIntensityAndEffects() throws {
        let summary = AutoplaySummary(cues: [
            .scene(.menu, music: "main", at: 0),
            .music(MusicSwitch(from: nil, to: "main", asked: 0, at: 0)),
            .scene(.game, music: "game", at: 3),
            .music(MusicSwitch(from: "main", to: "game", asked: 3, at: 3.84, bar: 3, beat: 1)),
            .intensity(0.4, at: 3, over: 0),
            .effect(name: "reward", at: 3.2125, volume: 1, pitch: 1.059_463, pan: -0.25),
            .scene(.gameOver, music: nil, at: 20),
        ])
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(summary.json.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["scenes", "music", "intensity", "effects"])
        let music = try #require(object["music"] as? [[String: Any]])
        #expect(music.count == 2)
        #expect(music[0]["from"] is NSNull && music[0]["bar"] is NSNull)
        #expect(music[1]["from"] as? String == "main" && music[1]["to"] as? String == "game")
        #expect(music[1]["asked"] as? Double == 3 && music[1]["at"] as? Double == 3.84)
        #expect(music[1]["bar"] as? Int == 3 && music[1]["beat"] as? Int == 1)
        let intensity = try #require(object["intensity"] as? [[String: Any]])
        #expect(intensity.first?["to"] as? Double == 0.4 && intensity.first?["over"] as? Double == 0)
        let scenes = try #require(object["scenes"] as? [[String: Any]])
        #expect(scenes.count == 3)
        #expect(scenes[0]["name"] as? String == "menu" && scenes[0]["music"] as? String == "main")
        #expect(scenes[2]["music"] is NSNull)
        let effects = try #require(object["effects"] as? [[String: Any]])
        #expect(effects[0]["name"] as? String == "reward")
        #expect(effects[0]["at"] as? Double == 3.2125)
        #expect(effects[0]["pitch"] as? Double == 1.059_463)
        #expect(effects[0]["volume"] as? Double == 1)
    }

    @Test func theSameSeedGivesTheSameBytes() async throws {
        let first = try await Fixtures.autoplay.value
        let again = try await Autoplay.run(
            seconds: Fixtures.seconds, seed: Fixtures.seed, assetsRoot: Fixtures.assetsRoot)
        #expect(first.summary.json == again.summary.json)
        #expect(
            WAVWriter.encode(first.audio, format: .float32) == WAVWriter.encode(again.audio, format: .float32)
        )
        #expect(first.audio.frameCount == Int(Fixtures.seconds) * Autoplay.sampleRate)
        let other = try await Autoplay.run(
            seconds: 5, seed: Fixtures.seed + 1, assetsRoot: Fixtures.assetsRoot)
        #expect(other.summary.json != first.summary.json)
    }

    @Test func badLengthsAndMissingAssetsAreTypedErrorsThatSayWhatToDo() async {
        await #expect(throws: AutoplayError.badDuration(-1)) {
            try await Autoplay.run(seconds: -1, seed: 1, assetsRoot: Fixtures.assetsRoot)
        }
        // 0 s preloads everything and renders nothing: what `make bench` times as start-up.
        let empty = try? await Autoplay.run(seconds: 0, seed: 1, assetsRoot: Fixtures.assetsRoot)
        #expect(empty?.audio.frameCount == 0)
        do {
            _ = try await Autoplay.run(seconds: 1, seed: 1, assetsRoot: "/nonexistent/assets")
            Issue.record("a missing assets folder was accepted")
        } catch {
            #expect(error.description.contains("/nonexistent/assets"))
            #expect(error.description.contains("--assets"))
        }
    }
}
