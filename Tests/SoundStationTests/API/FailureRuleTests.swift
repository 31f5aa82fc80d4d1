import SoundStationTesting
import Testing

@testable import SoundStation

/// The API's one rule for failures: a programming error throws a typed error naming what is wrong;
/// a runtime refusal is not an error (a handle that never plays and a `.refused` event).
@Suite struct FailureRuleTests {
    /// A bank with a preloaded effect, a preloaded music track and a streamed one.
    private func system() async throws -> SoundSystem {
        let assets = try TestAssets()
        try assets.addWAV("coin", Signals.sine(frequency: 880, seconds: 0.1))
        try assets.addWAV("theme", Signals.sine(frequency: 220, seconds: 0.5), kind: "music")
        try assets.addOgg("long", Signals.sine(frequency: 330, seconds: 1), extra: "\"stream\": true")
        return try await assets.system()
    }

    @Test func anEntryOfTheWrongKindSaysWhichKindItIs() async throws {
        let system = try await system()
        #expect(system.bank.isStreamed("long"))
        for music in ["theme", "long"] {
            #expect(throws: SoundLoadError.wrongKind(name: music, kind: .music, expected: .effect)) {
                try system.effects.play(music)
            }
        }
        #expect(throws: SoundLoadError.wrongKind(name: "coin", kind: .effect, expected: .music)) {
            try system.music.play("coin")
        }
        #expect(throws: MusicError.load(.wrongKind(name: "coin", kind: .effect, expected: .music))) {
            try system.music.play("coin", at: .nextBar)
        }
        let message = SoundLoadError.wrongKind(name: "theme", kind: .music, expected: .effect).description
        #expect(message.contains("\"theme\" is a music entry") && message.contains("music.play"))
        // Nothing was started by the refused calls, and the right calls still play.
        #expect(AudioAnalysis.peak(try system.engine.render(frames: 4_800)) == 0)
        try system.music.play("theme")
        try system.effects.play("coin")
        #expect(AudioAnalysis.rms(try system.engine.render(frames: 4_800)) > 0.1)
    }

    @Test func aStationOfManySoundsNamesThemWhenAskedForItsOnlyOne() async throws {
        let system = try await system()
        let station = EffectStation(bank: system.bank, sounds: ["coin", "theme"])
        #expect(throws: SoundLoadError.notSingleSound(sounds: ["coin", "theme"])) { try station.play() }
        #expect(
            SoundLoadError.notSingleSound(sounds: ["coin", "theme"]).description.contains(
                "holds 2: coin, theme"))
    }

    @Test func aRefusalIsAnEventNotAnError() async throws {
        let assets = try TestAssets()
        try assets.addWAV(
            "tick", Signals.sine(frequency: 1_000, seconds: 0.2),
            extra: "\"maxInstances\": 1, \"steal\": \"refuse\", \"coalesceMs\": 0")
        let system = try await assets.system()
        let refused = Locked<[VoiceHandle]>([])
        let subscription = system.engine.onEvent { event in
            if case .refused(let handle, "tick", _) = event { refused.withLock { $0.append(handle) } }
        }
        defer { subscription.cancel() }
        let first = try #require(try system.effects.play("tick"))
        let second = try #require(try system.effects.play("tick"))
        _ = try system.engine.render(frames: 480)
        #expect(system.engine.isActive(first))
        #expect(!system.engine.isActive(second))
        #expect(refused.withLock { $0 } == [second])
    }

    @Test func aValueOutOfRangeIsAnErrorNamingItAndPlaysNothing() async throws {
        let system = try await system()
        #expect {
            try system.effects.play("coin", pan: 2)
        } throws: { error in
            guard case SoundLoadError.engine("coin", .invalidArgument("pan", "2.0", let expected)) = error
            else {
                return false
            }
            return expected.contains("-1.0...1.0")
        }
        let id = try system.bank.id(of: "coin")
        #expect(throws: AudioEngineError.self) { try system.effects.play(id, volume: .nan) }
        #expect(throws: AudioEngineError.self) { try system.effects.play(id, pitch: 0) }
        let other = try AudioEngine(output: .offline())
        let foreign = try other.makeBuffer(Signals.sine(frequency: 440, seconds: 0.1), name: "foreign")
        #expect(
            throws: AudioEngineError.invalidArgument(
                name: "buffer", value: "\"foreign\"", expected: "a buffer made by this engine")
        ) {
            try system.engine.play(foreign)
        }
        #expect(AudioAnalysis.peak(try system.engine.render(frames: 4_800)) == 0)
    }

    @Test func aSoundSystemThatCannotBeMadeSaysWhichHalfFailed() throws {
        let missing = "/nonexistent/soundstation-assets"
        let error = #expect(throws: SoundSystemError.self) {
            try SoundSystem(output: .offline(), assets: .directory(missing))
        }
        guard case .catalogue = error else {
            Issue.record("expected a catalogue error, got \(String(describing: error))")
            return
        }
        #expect(error?.description.contains(missing) == true)
    }
}
