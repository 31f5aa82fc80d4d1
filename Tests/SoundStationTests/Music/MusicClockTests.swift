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
        clock.start(on: system.engine, at: 0.1)
        _ = try system.engine.render(frames: 35_040)  // 0.73 s
        #expect(try clock.time(of: .nextBeat) == 1.1)
        #expect(try clock.time(of: .nextBar) == 2.1)
        #expect(try clock.time(of: .bars(2)) == 4.1)
        #expect(clock.position(at: 1.35) == MusicPosition(bar: 1, beat: 3, fraction: 0.5))
        #expect(throws: MusicError.noMarkers(marker: "x")) { try clock.time(of: .marker("x")) }
    }

    @Test func effectsOnTheClockStartOnItsBarFrame() async throws {
        let (system, _) = try await system()
        let clock = try MusicClock(bpm: 133, beatsPerBar: 3)
        clock.start(on: system.engine, at: 0.05)
        let stinger = EffectStation(bank: system.bank, timeline: clock)
        // At 0 the clock's first bar (0.05 s) is the next; from 0.1 s on, its second.
        #expect(try clock.time(of: .nextBar) == 0.05)
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
        #expect(try clock.time(of: .nextBeat) == 1.25)
        clock.pause()
        _ = try system.engine.render(frames: 48_000)
        #expect(clock.position() == MusicPosition(bar: 1, beat: 2, fraction: 0.5))
        clock.resume()
        #expect(try clock.time(of: .nextBeat) == 2.25)
        #expect(throws: MusicError.invalidTempo(0)) { try clock.setTempo(0) }
        #expect(throws: MusicError.invalidTempo(-5)) { try MusicClock(bpm: -5) }
    }

    @Test func scheduledWorkRunsOnTheBeat() async throws {
        let (system, _) = try await system()
        let clock = try MusicClock(bpm: 150)
        clock.start(on: system.engine)
        _ = try system.engine.render(frames: 1_000)
        let engine = system.engine
        let ran = Mutex<Double?>(nil)
        try clock.schedule(at: .nextBeat) { ran.withLock { $0 = engine.time } }
        _ = try system.engine.render(frames: 48_000)
        #expect(ran.withLock { $0 } == 0.4)
    }
}
