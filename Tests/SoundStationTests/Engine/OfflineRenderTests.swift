import Foundation
import SoundStationTesting
import Synchronization
import Testing

@testable import SoundStation

@Suite struct OfflineRenderTests {
    @Test func effectStartsAtItsFrame() throws {
        let engine = try AudioEngine(output: .offline(sampleRate: 48_000, channels: 2))
        let tone = try engine.makeBuffer(
            Signals.sine(frequency: 440, seconds: 0.25, phase: .pi / 2), name: "tone")
        for time in [0.0, 0.1, 0.123_456, 0.5, 0.999_97] {
            let start = engine.time
            try engine.play(tone, at: start + .seconds(time))
            let mix = try engine.render(frames: 48_000)
            let expected = Int((time * 48_000).rounded())
            #expect(AudioAnalysis.onset(mix, threshold: 1e-6) == expected, "played at +\(time) s")
        }
    }

    @Test(arguments: [22_050, 44_100, 48_000])
    func startFrameFollowsTheRate(rate: Int) throws {
        let engine = try AudioEngine(output: .offline(sampleRate: rate, channels: 2))
        let click = try engine.makeBuffer(
            PCMAudio(sampleRate: rate, channels: 1, samples: [0.5, 0.5, 0.5]), name: "click")
        try engine.play(click, at: .seconds(0.3))
        let mix = try engine.render(frames: rate / 2)
        #expect(AudioAnalysis.onset(mix, threshold: 1e-6) == Int((0.3 * Double(rate)).rounded()))
    }

    @Test func stereoSoundReachesTheOutputUnchanged() throws {
        let engine = try AudioEngine(output: .offline(sampleRate: 48_000, channels: 2))
        let source = Signals.stereoTones(left: 300, right: 1_000, seconds: 0.5)
        try engine.play(try engine.makeBuffer(source, name: "tones"))
        let mix = try engine.render(frames: source.frameCount)
        let largest = zip(mix.samples, source.samples).map { abs($0 - $1) }.max() ?? 1
        #expect(largest < 1e-5)
    }

    @Test func monoSoundKeepsItsEnergyAtTheCentre() throws {
        let engine = try AudioEngine(output: .offline(sampleRate: 48_000, channels: 2))
        let sources = [
            Signals.sine(frequency: 440, seconds: 0.5), Signals.noise(seconds: 0.5),
            Signals.sine(frequency: 3_000, seconds: 0.5, amplitude: 0.2),
        ]
        for source in sources {
            try engine.play(try engine.makeBuffer(source, name: "mono"))
            let mix = try engine.render(frames: source.frameCount)
            let input = AudioAnalysis.rms(source)
            // OpenAL Soft pans a centred mono source to both speakers at -4.5 dB each.
            for channel in 0..<2 {
                let gain = AudioAnalysis.decibels(AudioAnalysis.rms(mix, channel: channel) / input)
                #expect(abs(gain - -4.5) < 0.2, "channel \(channel): \(gain) dB")
            }
            _ = try engine.render(frames: 4_800)
        }
    }

    @Test func panMovesAMonoSoundToOneSide() throws {
        let engine = try AudioEngine(output: .offline(sampleRate: 48_000, channels: 2))
        let tone = try engine.makeBuffer(Signals.sine(frequency: 440, seconds: 0.3), name: "tone")
        try engine.play(tone, options: PlayOptions(pan: -1))
        let left = try engine.render(frames: 14_400)
        #expect(AudioAnalysis.rms(left, channel: 0) > 10 * AudioAnalysis.rms(left, channel: 1))
        try engine.play(tone, options: PlayOptions(pan: 1))
        let right = try engine.render(frames: 14_400)
        #expect(AudioAnalysis.rms(right, channel: 1) > 10 * AudioAnalysis.rms(right, channel: 0))
    }

    @Test func twoRendersOfTheSameCuesAreIdentical() async throws {
        func render() async throws -> [Float] {
            let assets = try TestAssets()
            try assets.addWAV("a", Signals.noise(seconds: 0.3))
            try assets.addWAV("b", Signals.sine(frequency: 660, seconds: 0.4))
            try assets.addOgg("m", Signals.stereoTones(left: 220, right: 330, seconds: 2))
            let system = try await assets.system()
            let cues = [
                "0:music:m", "0.25:effect:a", "0.2501:effect:b", "0.9:music:m:crossfade=0.5",
                "1.7:stop-music:fade=0.2",
            ]
            for text in cues {
                let cue = try SoundCue(parsing: text)
                system.engine.schedule(at: cue.time) { try? system.perform(cue.action) }
            }
            return try system.engine.render(frames: 48_000 * 2).samples
        }
        let first = try await render()
        let second = try await render()
        #expect(first == second)
        #expect(AudioAnalysis.peak(PCMAudio(sampleRate: 48_000, channels: 2, samples: first)) > 0.1)
    }

    @Test func renderNeedsTheOfflineOutput() throws {
        let engine = try AudioEngine(output: .silent)
        #expect(throws: AudioEngineError.notOffline(operation: "render(frames:)")) {
            try engine.render(frames: 10)
        }
    }

    @Test func badRenderFormatIsRefusedWithItsValues() {
        #expect(throws: AudioEngineError.unsupportedRenderFormat(sampleRate: 1_000, channels: 2)) {
            try AudioEngine(output: .offline(sampleRate: 1_000, channels: 2))
        }
    }

    @Test func finishedEventFiresOncePerVoice() async throws {
        let engine = try AudioEngine(output: .offline(sampleRate: 48_000, channels: 2))
        let beep = try engine.makeBuffer(Signals.sine(frequency: 500, seconds: 0.1), name: "beep")
        let events = engine.events()
        let first = try #require(try engine.play(beep))
        let second = try #require(try engine.play(beep, at: .seconds(0.05)))
        _ = try engine.render(frames: 24_000)
        let seen = try await events.collect(within: .seconds(10)) { seen in
            seen.count { if case .started = $0 { true } else { false } } == 2
                && Set(seen.compactMap { if case .finished(let voice, _, _, _) = $0 { voice } else { nil } })
                    .count == 2
        }
        var finished: [VoiceHandle: Int] = [:]
        for event in seen {
            switch event {
            case .started: break
            case .finished(let voice, "beep", .ended, _): finished[voice, default: 0] += 1
            default: Issue.record("unexpected \(event)")
            }
        }
        #expect(finished == [first: 1, second: 1])
        #expect(engine.activeVoiceCount == 0)
        #expect(!engine.isActive(first))
    }

    @Test func silentOutputRunsOnTheWallClock() async throws {
        let engine = try AudioEngine(output: .silent)
        let beep = try engine.makeBuffer(Signals.sine(frequency: 500, seconds: 0.1), name: "beep")
        let finished = Mutex<Int>(0)
        engine.onEvent { event in
            if case .finished(_, _, .ended, _) = event { finished.withLock { $0 += 1 } }
        }
        try engine.play(beep)
        for _ in 0..<200 where finished.withLock({ $0 }) == 0 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(finished.withLock { $0 } == 1)
        #expect(engine.time >= .seconds(0.1))
    }

    @Test func theFallbackHonoursSoundstationOutput() throws {
        var notices: [String] = []
        let engine = try AudioEngine.openWithFallback(
            .device(), environment: ["SOUNDSTATION_OUTPUT": "silent"]
        ) { notices.append($0) }
        defer { engine.shutdown() }
        #expect(engine.output == .silent)
        #expect(notices.isEmpty, "a chosen silent output is no fallback: \(notices)")
        let other = try AudioEngine.openWithFallback(
            .silent, environment: ["SOUNDSTATION_OUTPUT": "loud"]
        ) { notices.append($0) }
        defer { other.shutdown() }
        #expect(
            notices.count == 1 && notices[0].contains("SOUNDSTATION_OUTPUT") && notices[0].contains("loud"))
    }

    @Test func unopenableDeviceFallsBackToSilentWithANotice() throws {
        let notices = Mutex<[String]>([])
        let engine = try AudioEngine.openWithFallback(.device(name: "SoundStation test: no such device")) {
            notice in
            notices.withLock { $0.append(notice) }
        }
        #expect(engine.output == .silent)
        let notice = try #require(notices.withLock { $0.first })
        #expect(notice.contains("no such device") && notice.contains("SOUNDSTATION_OUTPUT=silent"))
    }
}
