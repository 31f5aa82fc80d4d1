import Testing

@testable import SoundStation

/// A music entry's tempo and markers: read, refused with the entry and key named, and checked against
/// the file when it is loaded.
@Suite struct CatalogueTempoTests {
    let assets: CatalogueTempAssets

    init() throws {
        assets = try CatalogueTempAssets()
        try assets.write("Effects/reward.wav")
        try assets.write("Music/main.ogg")
    }

    func main(_ extra: String) -> String {
        "{\"name\": \"main\", \"path\": \"Music/main.ogg\", \"kind\": \"music\", \(extra)}"
    }

    @Test func tempoAndMarkersAreRead() throws {
        try assets.manifest(entries: [
            main(
                "\"bpm\": 128.5, \"beatsPerBar\": 3, \"downbeat\": 0.25, \"markers\": {\"calm-exit\": 16, \"b\": 2.5}"
            ),
            main("\"bpm\": 90").replacingOccurrences(of: "\"main\"", with: "\"plain\""),
        ])
        let catalogue = try assets.load()
        #expect(catalogue["main"]?.tempo == Tempo(bpm: 128.5, beatsPerBar: 3, downbeat: 0.25))
        #expect(catalogue["main"]?.markers == ["calm-exit": 16, "b": 2.5])
        #expect(catalogue["plain"]?.tempo == Tempo(bpm: 90, beatsPerBar: 4, downbeat: 0))
        #expect(catalogue["plain"]?.markers == [:])
    }

    @Test(
        arguments: [
            ("\"bpm\": 0", "bpm", "0"),
            ("\"bpm\": -120", "bpm", "-120"),
            ("\"bpm\": \"fast\"", "bpm", "\"fast\""),
            ("\"bpm\": 1200", "bpm", "1200"),
            ("\"beatsPerBar\": 3", "beatsPerBar", "3"),
            ("\"downbeat\": 0.5", "downbeat", "0.5"),
            ("\"bpm\": 120, \"beatsPerBar\": 0", "beatsPerBar", "0"),
            ("\"bpm\": 120, \"beatsPerBar\": 2.5", "beatsPerBar", "2.5"),
            ("\"bpm\": 120, \"downbeat\": -1", "downbeat", "-1"),
            ("\"markers\": [16]", "markers", "an array"),
            ("\"markers\": {\"exit\": -2}", "markers.exit", "-2"),
            ("\"markers\": {\"exit\": \"16s\"}", "markers.exit", "\"16s\""),
            ("\"markers\": {\" exit\": 1}", "markers", "\" exit\""),
            ("\"stems\": []", "stems", "an array"),
            ("\"stems\": [\"drums.wav\"]", "stems.0", "\"drums.wav\""),
            ("\"stems\": [{\"from\": 0.1}]", "stems.0.path", "null"),
            ("\"stems\": [{\"path\": \"Music/main.ogg\", \"from\": 2}]", "stems.0.from", "2"),
            (
                "\"stems\": [{\"path\": \"Music/main.ogg\", \"from\": 0.5, \"full\": 0.2}]", "stems.0.full",
                "0.2"
            ),
            ("\"stems\": [{\"path\": \"Music/main.ogg\", \"gain\": 1}]", "stems.0.gain", "1"),
        ])
    func badTempoValuesNameTheEntryAndKey(extra: String, key: String, shown: String) throws {
        try assets.manifest(entries: [main(extra)])
        let error = try #require(assets.loadError())
        guard case .invalidValue(_, let name, let badKey, let value, _) = error else {
            Issue.record("expected invalidValue, got \(error)")
            return
        }
        #expect(name == "main" && badKey == key && value == shown)
        #expect(error.description.contains("sound \"main\": \"\(key)\" is \(shown), expected"), "\(error)")
    }

    @Test(arguments: ["\"bpm\": 120", "\"markers\": {\"hit\": 0.1}"])
    func onlyMusicKeepsTime(extra: String) throws {
        try assets.manifest(entries: [
            "{\"name\": \"reward\", \"path\": \"Effects/reward.wav\", \"kind\": \"effect\", \(extra)}"
        ])
        let message = try #require(assets.loadError()).description
        #expect(
            message.contains("sound \"reward\"") && message.contains("only music keeps time"), "\(message)")
    }

    @Test func misspeltTempoKeySuggestsTheRightOne() throws {
        try assets.manifest(entries: [main("\"bmp\": 120")])
        #expect(assets.loadError()?.description.contains("did you mean \"bpm\"?") == true)
    }
}

/// Tempo and markers that do not fit the file are refused when the track is loaded.
@Suite struct TempoLoadingTests {
    func loadError(_ extra: String, seconds: Double = 1.5) async throws -> SoundLoadError? {
        let assets = try TestAssets()
        try assets.addWAV(
            "main", Signals.stereoTones(left: 220, right: 330, seconds: seconds), kind: "music", extra: extra)
        let engine = try AudioEngine(output: .offline(sampleRate: 48_000, channels: 2))
        let bank = SoundBank(engine: engine, catalogue: try assets.catalogue())
        do {
            try bank.load("main")
            return nil
        } catch {
            return error
        }
    }

    @Test func aLoopBodyOfWholeBarsLoads() async throws {
        // 1.5 s is one bar of 4 at 160 bpm, and two of 3 at 240.
        #expect(try await loadError("\"bpm\": 160") == nil)
        #expect(try await loadError("\"bpm\": 240, \"beatsPerBar\": 3") == nil)
        // A body within a frame of whole bars loads (loop points are whole frames); two frames off
        // does not.
        #expect(try await loadError("\"bpm\": 240, \"loopStart\": 12000, \"loopEnd\": 60001") == nil)
        #expect(try await loadError("\"bpm\": 240, \"loopStart\": 12000, \"loopEnd\": 60002") != nil)
    }

    @Test func aLoopBodyThatIsNotWholeBarsSaysWhy() async throws {
        let error = try #require(try await loadError("\"bpm\": 100"))
        guard case .catalogue(.timingMismatch(let name, let key, let reason)) = error else {
            Issue.record("expected timingMismatch, got \(error)")
            return
        }
        #expect(name == "main" && key == "bpm")
        #expect(reason.contains("0.625 bars") && reason.contains("whole number of bars"), "\(reason)")
        #expect(error.description.hasPrefix("sound \"main\": \"bpm\" does not fit the file"))
    }

    @Test func markersAndDownbeatPastTheEndAreRefused() async throws {
        let late = try #require(try await loadError("\"bpm\": 160, \"markers\": {\"late\": 9}"))
        #expect(late.description.contains("\"markers.late\"") && late.description.contains("past the end"))
        let looped = try #require(
            try await loadError(
                "\"bpm\": 160, \"loopEnd\": \"1.5s\", \"markers\": {\"tail\": 1.6}", seconds: 2))
        #expect(looped.description.contains("past the loop's end"), "\(looped)")
        let downbeat = try #require(try await loadError("\"bpm\": 160, \"downbeat\": 3"))
        #expect(
            downbeat.description.contains("\"downbeat\"") && downbeat.description.contains("past the end"))
    }
}
