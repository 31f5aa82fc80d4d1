import Foundation
import SoundStationTesting
import Testing

@testable import SoundStation

/// Broken sound files among good ones: each is named in an error, nothing crashes, and the good
/// sounds still load and play.
@Suite struct BadAssetTests {
    static func badFiles(validWAV: [UInt8], validOgg: [UInt8]) -> [(
        name: String, file: String, bytes: [UInt8]
    )] {
        var random = SystemRandomNumberGenerator()
        var hugeHeader = validWAV
        // A 'data' chunk that claims 4 GiB.
        if let data = (0..<hugeHeader.count - 8).first(where: {
            hugeHeader[$0..<$0 + 4] == [100, 97, 116, 97]
        }) {
            for offset in 4..<8 { hugeHeader[data + offset] = 0xFF }
        }
        return [
            ("wav-truncated", "wav-truncated.wav", Array(validWAV.prefix(validWAV.count / 2))),
            ("wav-empty", "wav-empty.wav", []),
            ("wav-header-only", "wav-header-only.wav", Array(validWAV.prefix(12))),
            ("wav-huge-header", "wav-huge-header.wav", hugeHeader),
            (
                "wav-random", "wav-random.wav",
                (0..<4_096).map { _ in UInt8.random(in: 0...255, using: &random) }
            ),
            ("wav-is-text", "wav-is-text.wav", Array("this is not a sound".utf8)),
            ("ogg-truncated", "ogg-truncated.ogg", Array(validOgg.prefix(200))),
            ("ogg-empty", "ogg-empty.ogg", []),
            (
                "ogg-random", "ogg-random.ogg",
                Array("OggS".utf8) + (0..<4_096).map { _ in UInt8.random(in: 0...255, using: &random) }
            ),
            ("ogg-is-wav", "ogg-is-wav.ogg", Array(validWAV.prefix(40))),
        ]
    }

    @Test func everyBadFileIsNamedAndTheGoodSoundsStillPlay() async throws {
        let assets = try TestAssets()
        let good = Signals.sine(frequency: 700, seconds: 0.3)
        try assets.addWAV("good", good)
        try assets.addOgg(
            "good-ogg", Signals.stereoTones(left: 300, right: 500, seconds: 0.5), kind: "effect")
        let validWAV = WAVWriter.encode(good, format: .int16)
        let validOgg = [UInt8](try Data(contentsOf: URL(fileURLWithPath: "\(assets.root)/good-ogg.ogg")))
        let bad = Self.badFiles(validWAV: validWAV, validOgg: validOgg)
        for file in bad {
            try Data(file.bytes).write(to: URL(fileURLWithPath: "\(assets.root)/\(file.file)"))
            // Strict: a file cut short is an error, not a warning and what is there.
            assets.add(file.name, file: file.file, kind: "effect", extra: "\"strict\": true")
        }
        let system = SoundSystem(
            engine: try AudioEngine(output: .offline()), catalogue: try assets.catalogue())
        let loaded = try await system.bank.preload()
        let messages = loaded.failures.map(\.description)
        #expect(Set(loaded.names) == ["good", "good-ogg"])
        for file in bad {
            #expect(
                messages.contains { $0.contains("\"\(file.name)\"") && $0.contains(file.file) },
                "\(file.name) not reported")
        }
        try system.effects.play("good")
        try system.effects.play("good-ogg")
        #expect(AudioAnalysis.rms(try system.engine.render(frames: 9_600)) > 0.1)
        #expect(throws: SoundLoadError.notLoaded(name: "wav-random")) {
            try system.effects.play("wav-random")
        }
    }
}
