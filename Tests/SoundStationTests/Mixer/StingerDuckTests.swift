import SoundStationTesting
import Testing

@testable import SoundStation

/// A stinger that dips the music while it plays (`"duckMusic"` in the catalogue, or
/// ``PlayOptions/duckMusic``), gliding down and back, measured on rendered samples.
@Suite struct StingerDuckTests {
    /// The music's level in decibels against its level before the stinger, over `frames`.
    private func level(_ mix: PCMAudio, _ frames: Range<Int>, before: Double) -> Double {
        AudioAnalysis.decibels(AudioAnalysis.rms(mix, frames: frames) / before)
    }

    @Test func aStingerDucksTheMusicByItsCatalogueDecibelsAndGlidesBack() async throws {
        let assets = try TestAssets()
        try assets.addWAV("song", Signals.stereoTones(left: 200, right: 200, seconds: 1), kind: "music")
        try assets.addWAV(
            "sting", Signals.sine(frequency: 3_000, seconds: 0.5, amplitude: 0.01), extra: "\"duckMusic\": -9"
        )
        let system = try await assets.system()
        #expect(system.catalogue["sting"]?.duckMusic == -9)
        system.engine.ducking = Ducking(attack: .milliseconds(50), release: .milliseconds(200))
        try system.music.play("song")
        try system.effects.play("sting", at: .milliseconds(500))
        let mix = AudioAnalysis.channel(try system.engine.render(frames: 96_000), 0)
        let before = AudioAnalysis.rms(mix, frames: 12_000..<24_000)
        let ducked = level(mix, 27_600..<47_000, before: before)
        #expect(abs(ducked + 9) < 0.3, "ducked by \(ducked) dB")
        // Gliding, not jumping: half way through the 50 ms attack it is part way down.
        let attack = level(mix, 25_080..<25_320, before: before)
        #expect(attack < -1 && attack > -8, "mid-attack at \(attack) dB")
        let after = level(mix, 72_000..<96_000, before: before)
        #expect(abs(after) < 0.1, "after the release at \(after) dB")
    }

    @Test func playOptionsDuckTheMusicToo() async throws {
        let assets = try TestAssets()
        try assets.addWAV("song", Signals.stereoTones(left: 200, right: 200, seconds: 1), kind: "music")
        let system = try await assets.system()
        system.engine.ducking = Ducking(attack: .milliseconds(20), release: .milliseconds(50))
        let quiet = try system.engine.makeBuffer(
            Signals.sine(frequency: 3_000, seconds: 0.5, amplitude: 0.001), name: "quiet")
        try system.music.play("song")
        _ = try system.engine.play(quiet, options: PlayOptions(duckMusic: -6), at: .milliseconds(250))
        // A dip deeper than the engine allows, a boost or a NaN is a bad argument naming it.
        for bad: Float in [-500, 6, .nan] {
            #expect(throws: AudioEngineError.self) { try PlayOptions(duckMusic: bad).check() }
        }
        #expect(throws: AudioEngineError.self) {
            try system.engine.play(quiet, options: PlayOptions(duckMusic: 6))
        }
        let mix = AudioAnalysis.channel(try system.engine.render(frames: 48_000), 0)
        let before = AudioAnalysis.rms(mix, frames: 2_400..<12_000)
        let ducked = level(mix, 14_400..<33_600, before: before)
        #expect(abs(ducked + 6) < 0.3, "ducked by \(ducked) dB")
    }

    @Test(arguments: [
        ("\"kind\": \"effect\", \"duckMusic\": 3", "3"),
        ("\"kind\": \"effect\", \"duckMusic\": -90", "-90"),
        ("\"kind\": \"effect\", \"duckMusic\": \"loud\"", "\"loud\""),
        ("\"kind\": \"music\", \"duckMusic\": -9", "-9"),
    ])
    func badDucksNameTheEntryAndKey(members: String, shown: String) throws {
        let assets = try CatalogueTempAssets()
        try assets.write("Effects/sting.wav")
        try assets.manifest(entries: ["{\"name\": \"sting\", \"path\": \"Effects/sting.wav\", \(members)}"])
        let error = try #require(assets.loadError())
        guard case .invalidValue(_, let name, let key, let value, _) = error else {
            Issue.record("expected invalidValue, got \(error)")
            return
        }
        #expect(name == "sting" && key == "duckMusic" && value == shown, "\(error)")
    }
}
