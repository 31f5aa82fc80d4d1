import SoundStationTesting
import Synchronization
import Testing

@testable import SoundStation

@Suite struct MusicClockTests {
    func system() async throws -> (SoundSystem, TestAssets) {
        let assets = try TestAssets()
        let click = PCMAudio(sampleRate: 48_000, channels: 2, samples: [Float](repeating: 0.5, count: 960))
        try assets.addWAV("click", click, kind: "effect")
        return (try await assets.system(), assets)
    }

    @Test func pointsFallOnTheClocksGridFromItsStart() async throws {
        let (system, _) = try await system()
        let clock = try MusicClock(bpm: 120, beatsPerBar: 4)
        #expect(try clock.time(of: .nextBar) == nil)
        clock.start(on: system.engine, at: .seconds(0.1))
        _ = try system.engine.render(frames: 35_040)  // 0.73 s
        #expect(try clock.time(of: .nextBeat)?.inSeconds == 1.1)
        #expect(try clock.time(of: .nextBar)?.inSeconds == 2.1)
        #expect(try clock.time(of: .bars(2))?.inSeconds == 4.1)
        #expect(clock.position(at: .seconds(1.35)) == MusicPosition(bar: 1, beat: 3, fraction: 0.5))
        #expect(throws: MusicError.noMarkers(marker: "x")) { try clock.time(of: .marker("x")) }
    }

    @Test func effectsOnTheClockStartOnItsBarFrame() async throws {
        let (system, _) = try await system()
        let clock = try MusicClock(bpm: 133, beatsPerBar: 3)
        clock.start(on: system.engine, at: .seconds(0.05))
        let stinger = EffectStation(bank: system.bank, timeline: clock)
        // At 0 the clock's first bar (0.05 s) is the next; from 0.1 s on, its second.
        #expect(try clock.time(of: .nextBar)?.inSeconds == 0.05)
        _ = try system.engine.render(frames: 4_800)
        try stinger.play("click", at: .nextBar)
        let expected = Int(((0.05 + 3 * 60 / 133.0) * 48_000).rounded())
        let mix = try system.engine.render(frames: expected)
        #expect(AudioAnalysis.onset(mix, threshold: 0) == expected - 4_800)
    }

    @Test func tempoChangesAndPausesMoveOnlyWhatIsToCome() async throws {
        let (system, _) = try await system()
        let clock = try MusicClock(bpm: 120)
        clock.start(on: system.engine)
        _ = try system.engine.render(frames: 36_000)  // 0.75 s: 1.5 beats
        try clock.setTempo(60)
        // Half a beat to go at one beat per second.
        #expect(try clock.time(of: .nextBeat)?.inSeconds == 1.25)
        clock.pause()
        _ = try system.engine.render(frames: 48_000)
        #expect(clock.position() == MusicPosition(bar: 1, beat: 2, fraction: 0.5))
        clock.resume()
        #expect(try clock.time(of: .nextBeat)?.inSeconds == 2.25)
        #expect(throws: MusicError.invalidTempo(0)) { try clock.setTempo(0) }
        #expect(throws: MusicError.invalidTempo(-5)) { try MusicClock(bpm: -5) }
    }

    @Test func scheduledWorkRunsOnTheBeat() async throws {
        let (system, _) = try await system()
        let clock = try MusicClock(bpm: 150)
        clock.start(on: system.engine)
        _ = try system.engine.render(frames: 1_000)
        let engine = system.engine
        let ran = Mutex<Duration?>(nil)
        try clock.schedule(at: .nextBeat) { ran.withLock { $0 = engine.time } }
        _ = try system.engine.render(frames: 48_000)
        #expect(ran.withLock { $0 } == .milliseconds(400))
    }

    @Test func aTempoGlideBendsTheGridByItsIntegral() async throws {
        let (system, _) = try await system()
        let clock = try MusicClock(bpm: 120)
        clock.start(on: system.engine)
        // 120 -> 60 bpm over 2 s: beats(t) = 2t - t²/4, so beat 1 at 4 - √12 s, beat 3 where the glide
        // ends at 2 s, and beat 4 (the next bar) one second of 60 bpm later.
        try clock.setTempo(60, tween: Tween(.seconds(2)))
        _ = try system.engine.render(frames: 4_800)
        #expect(
            try clock.time(of: .nextBeat)
                == .frames(Int64(((4 - 12.0.squareRoot()) * 48_000).rounded()), rate: 48_000))
        #expect(try clock.time(of: .nextBar)?.inSeconds == 3)
        #expect(abs(clock.bpm - 117) < 1e-9)
        _ = try system.engine.render(frames: 43_200)  // 1 s: half way, 90 bpm
        #expect(abs(clock.bpm - 90) < 1e-9)
        // At 1.75 beats: beat 2 where 2t - t²/4 = 2, at 4 - √8 s.
        #expect(
            try clock.time(of: .nextBeat)
                == .frames(Int64(((4 - 8.0.squareRoot()) * 48_000).rounded()), rate: 48_000))
        // A new glide from where the old one got to: 90 -> 150 over 1 s adds 2 beats (3.75 at 2 s),
        // then a quarter beat at 150 bpm (0.1 s) reaches the bar.
        try clock.setTempo(150, tween: Tween(.seconds(1)))
        let position = try #require(clock.position(at: .seconds(2)))
        #expect(position.bar == 1 && position.beat == 4 && abs(position.fraction - 0.75) < 1e-9)
        #expect(try clock.time(of: .nextBar)?.inSeconds == 2.1)
        #expect(throws: MusicError.invalidGlide(.seconds(-1))) {
            try clock.setTempo(100, tween: Tween(.seconds(-1)))
        }
    }

    @Test func beatEventsFollowTheClockThroughPausesAndGlides() async throws {
        let (system, _) = try await system()
        let clock = try MusicClock(bpm: 240, beatsPerBar: 3, name: "pulse")
        let beats = Mutex<[MusicBeat]>([])
        let subscription = clock.onBeat { beat in beats.withLock { $0.append(beat) } }
        defer { subscription.cancel() }
        clock.start(on: system.engine, at: .seconds(0.1))
        _ = try system.engine.render(frames: 48_000)  // beats at 0.1, 0.35, 0.6, 0.85
        clock.pause()
        _ = try system.engine.render(frames: 24_000)
        clock.resume()  // at 1.5 s the clock stands at 3.6 beats: beat 4 at 1.6 s
        _ = try system.engine.render(frames: 9_600)  // to 1.7 s
        try clock.setTempo(120)  // 4.4 beats: beat 5 at 1.7 + 0.3 s
        _ = try system.engine.render(frames: 24_000)
        let heard = beats.withLock { $0 }
        #expect(
            heard.map { Int(($0.time.inSeconds * 48_000).rounded()) } == [
                4_800, 16_800, 28_800, 40_800, 76_800, 96_000,
            ])
        #expect(heard.map(\.bar) == [1, 1, 1, 2, 2, 2] && heard.map(\.beat) == [1, 2, 3, 1, 2, 3])
        #expect(heard.allSatisfy { $0.track == "pulse" })
    }
}
