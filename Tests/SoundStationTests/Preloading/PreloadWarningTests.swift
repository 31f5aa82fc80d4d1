import Foundation
import SoundStationTesting
import Testing

@testable import SoundStation

/// Files that load with something wrong: the preload carries each warning with its sound's name.
@Suite struct PreloadWarningTests {
    @Test("a file cut short loads what is there and the preload carries one warning naming sound and file")
    func cutShortFileWarns() async throws {
        let assets = try TestAssets()
        try assets.addWAV("whole", Signals.sine(frequency: 440, seconds: 0.5))
        try assets.addWAV("cut", Signals.sine(frequency: 440, seconds: 0.5))
        let path = "\(assets.root)/cut.wav"
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        // Half the samples: the header still declares them all.
        try bytes.prefix(44 + (bytes.count - 44) / 2).write(to: URL(fileURLWithPath: path))
        let engine = try AudioEngine(output: .offline())
        let bank = SoundBank(engine: engine, catalogue: try assets.catalogue())

        let loaded = try await bank.preload()
        #expect(Set(loaded.names) == ["whole", "cut"])
        #expect(loaded.failures.isEmpty)
        #expect(loaded.warnings.count == 1)
        let warning = try #require(loaded.warnings.first)
        #expect(warning.name == "cut")
        #expect(warning.warning.path.hasSuffix("cut.wav"))
        #expect(warning.description.contains("\"cut\"") && warning.description.contains("cut.wav"))
        #expect(warning.description.contains("cut short"))
        // What is there plays: a quarter second of the half second.
        let frames = try #require(bank.buffer(named: "cut")?.frameCount)
        #expect(abs(frames - 12_000) < 64, "\(frames)")

        // A second user of the sound is told too; the decoder ran once.
        let again = try await bank.preload(["cut"])
        #expect(again.warnings == loaded.warnings)
        #expect(try bank.load("whole").isEmpty)
    }
}
