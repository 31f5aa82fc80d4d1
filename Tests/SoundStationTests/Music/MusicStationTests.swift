import SoundStationTesting
import Testing

@testable import SoundStation

@Suite struct MusicStationTests {
    static let rate = 48_000
    let main = Signals.stereoTones(left: 220, right: 330, seconds: 1.5)
    let game = Signals.stereoTones(left: 523, right: 784, seconds: 1.5)

    private func system(_ extraMain: String = "", _ extraGame: String = "") async throws -> (
        SoundSystem, TestAssets
    ) {
        let assets = try TestAssets()
        try assets.addWAV("main", main, kind: "music", extra: extraMain)
        try assets.addWAV("game", game, kind: "music", extra: extraGame)
        return (try await assets.system(), assets)
    }

    @Test func switchingScenesRewindsTheNewTrackAndSilencesTheOld() async throws {
        let (system, _) = try await system()
        try system.music.play("main")
        system.engine.schedule(at: .seconds(1)) { try? system.music.play("game") }
        system.engine.schedule(at: .seconds(2)) { try? system.music.play("main") }
        let mix = try system.engine.render(frames: 3 * Self.rate)
        #expect(AudioAnalysis.largestDifference(mix, at: 0, main, from: 0, to: Self.rate) < 1e-5)
        #expect(AudioAnalysis.largestDifference(mix, at: Self.rate, game, from: 0, to: Self.rate) < 1e-5)
        #expect(AudioAnalysis.largestDifference(mix, at: 2 * Self.rate, main, from: 0, to: Self.rate) < 1e-5)
        #expect(system.music.current == "main")
    }

    @Test func crossfadedSwitchLeavesOnlyTheNewTrackAfterTheFade() async throws {
        let (system, _) = try await system()
        try system.music.play("main")
        try system.music.play("game", transition: .crossfade(.seconds(0.25)), at: .seconds(0.5))
        let mix = try system.engine.render(frames: Self.rate * 3 / 2)
        let after = Self.rate * 3 / 4 + 2_048
        let fromGame = after - Self.rate / 2
        #expect(
            AudioAnalysis.largestDifference(
                mix, at: after, game, from: fromGame, to: fromGame + Self.rate / 2)
                < 1e-5)
        #expect(system.engine.activeVoiceCount == 1)
    }

    @Test func trackLoopsForeverWithoutASeam() async throws {
        // 220 and 330 Hz fit whole cycles into 1.5 s, so the track is seamless by construction.
        let (system, _) = try await system()
        try system.music.play("main")
        let mix = try system.engine.render(frames: 4 * Self.rate)
        let length = main.frameCount
        #expect(AudioAnalysis.largestDifference(mix, at: length, main, from: 0, to: length) < 1e-5)
        #expect(AudioAnalysis.largestDifference(mix, at: 2 * length, main, from: 0, to: Self.rate) < 1e-5)
        let seam = AudioAnalysis.largestJump(mix, frames: length - 2..<length + 2)
        #expect(seam <= AudioAnalysis.largestJump(main, frames: 0..<length))
    }

    @Test func introPlaysOnceThenTheBodyLoops() async throws {
        let (system, _) = try await system("", "\"loopStart\": 24000")
        try system.music.play("game")
        let mix = try system.engine.render(frames: 4 * Self.rate)
        let length = game.frameCount
        #expect(AudioAnalysis.largestDifference(mix, at: 0, game, from: 0, to: length) < 1e-5)
        #expect(AudioAnalysis.largestDifference(mix, at: length, game, from: 24_000, to: length) < 1e-5)
        #expect(
            AudioAnalysis.largestDifference(mix, at: 2 * length - 24_000, game, from: 24_000, to: length)
                < 1e-5)
    }

    @Test func resumeContinuesWhereTheTrackWasLeft() async throws {
        let (system, _) = try await system()
        try system.music.play("main")
        try system.music.play("game", at: .seconds(0.5))
        try system.music.play("main", from: .resume, at: .seconds(1))
        let mix = try system.engine.render(frames: Self.rate * 3 / 2)
        let heard = Self.rate / 2
        #expect(
            AudioAnalysis.largestDifference(mix, at: Self.rate, main, from: heard, to: heard + Self.rate / 4)
                < 1e-4
        )
    }

    @Test func stopWithFadeEndsInSilence() async throws {
        let (system, _) = try await system()
        let events = system.engine.events()
        try system.music.play("main")
        system.music.stop(fade: .seconds(0.3), at: .seconds(0.5))
        let mix = try system.engine.render(frames: Self.rate)
        let during = AudioAnalysis.rms(mix, frames: 26_000..<30_000)
        let before = AudioAnalysis.rms(mix, frames: 12_000..<24_000)
        #expect(during < before && during > 0.01)
        let tail = Array(mix.samples[((38_400 + 256) * 2)...])
        #expect(tail.allSatisfy { $0 == 0 })
        #expect(system.music.current == nil)
        let stopped = try await events.nextEvent(within: .seconds(10)) {
            if case .finished(_, "main", .stopped, _) = $0 { true } else { false }
        }
        guard case .finished(_, _, _, let time) = stopped else { return }
        #expect(abs(time.inSeconds - 0.8) < 0.01, "stopped at \(time) s")
    }

    @Test func crossfadeKeepsThePowerSteady() async throws {
        let assets = try TestAssets()
        let a = Signals.noise(seconds: 3, amplitude: 0.3, channels: 2, seed: 7)
        let b = Signals.noise(seconds: 3, amplitude: 0.3, channels: 2, seed: 9)
        try assets.addWAV("a", a, kind: "music")
        try assets.addWAV("b", b, kind: "music")
        let system = try await assets.system()
        try system.music.play("a")
        try system.music.play("b", transition: .crossfade(.seconds(1)), at: .seconds(1))
        let mix = try system.engine.render(frames: 3 * Self.rate)
        let steady = AudioAnalysis.rms(a)
        var worst = 0.0
        for start in stride(from: Self.rate / 2, to: Self.rate * 5 / 2, by: 960) {
            let level = AudioAnalysis.decibels(AudioAnalysis.rms(mix, frames: start..<start + 960) / steady)
            worst = max(worst, abs(level))
        }
        #expect(worst < 1.5, "summed power strayed \(worst) dB")
    }

    @Test func pausedMusicIsSilentAndResumesWhereItWas() async throws {
        let (system, _) = try await system()
        try system.music.play("main")
        _ = try system.engine.render(frames: 12_000)
        system.music.pause()
        let paused = try system.engine.render(frames: 12_000)
        #expect(paused.samples.allSatisfy { $0 == 0 })
        let pausedAt = try #require(system.music.currentVoice.flatMap { system.engine.position(of: $0) })
        system.music.resume()
        let resumed = try system.engine.render(frames: 12_000)
        #expect(
            AudioAnalysis.largestDifference(resumed, at: 0, main, from: pausedAt, to: pausedAt + 8_000) < 1e-4
        )
    }

    @Test func anEventHandlerMaySwitchTheMusic() async throws {
        let (system, _) = try await system()
        let music = system.music
        let subscription = system.engine.onEvent { [weak music] event in
            if case .finished(_, "main", .stopped, _) = event { try? music?.play("game") }
        }
        defer { subscription.cancel() }
        try music.play("main")
        _ = try system.engine.render(frames: 4_800)
        music.stop()
        _ = try system.engine.render(frames: 0)  // the stop, then the handler's switch, are carried out
        #expect(music.current == "game")
        _ = try system.engine.render(frames: 4_800)
        #expect(system.engine.activeVoiceCount == 1)
    }

    @Test func unloadedTrackIsRefusedWithoutStoppingTheMusic() async throws {
        let assets = try TestAssets()
        try assets.addWAV("main", main, kind: "music")
        try assets.addWAV("later", game, kind: "music")
        let engine = try AudioEngine(output: .offline())
        let system = SoundSystem(engine: engine, catalogue: try assets.catalogue())
        _ = try await system.bank.preload(["main"])
        try system.music.play("main")
        _ = try engine.render(frames: 0)
        #expect(throws: SoundLoadError.notLoaded(name: "later")) { try system.music.play("later") }
        #expect(system.music.current == "main")
        #expect(AudioAnalysis.rms(try engine.render(frames: 4_800)) > 0.1)
    }
}

@Suite struct MusicStreamingTests {
    @Test func streamedTrackRendersExactlyAsPreloaded() async throws {
        let assets = try TestAssets()
        let seconds = 12.0
        var track = Signals.noise(seconds: seconds, amplitude: 0.2, channels: 2, seed: 3)
        let tone = Signals.stereoTones(left: 150, right: 450, seconds: seconds)
        for index in track.samples.indices { track.samples[index] += tone.samples[index] * 0.5 }
        try assets.addOgg("streamed", track, extra: "\"stream\": true, \"loopStart\": 48000")
        assets.add("whole", file: "streamed.ogg", kind: "music", extra: "\"loopStart\": 48000")
        let system = try await assets.system()
        #expect(system.bank.isStreamed("streamed"))
        #expect(!system.bank.isStreamed("whole"))
        let frames = Int(seconds * 48_000) * 2
        try system.music.play("streamed", at: .seconds(0))
        let streamed = try system.engine.render(frames: frames)
        system.music.stop(at: system.engine.time)
        _ = try system.engine.render(frames: 512)
        try system.music.play("whole", at: system.engine.time)
        let whole = try system.engine.render(frames: frames)
        #expect(AudioAnalysis.rms(whole) > 0.1)
        let difference = zip(streamed.samples, whole.samples).map { abs($0 - $1) }.max() ?? 1
        #expect(difference < 1e-6)
    }
}
