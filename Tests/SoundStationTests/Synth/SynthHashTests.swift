import Foundation
import SoundStationTesting
import Testing

@testable import SoundStation

/// The render every language compares (Tests/Synth/README.md): Swift's hash is the reference the C,
/// Python, Rust and Go tests read from Tests/Synth/coin-seed7.fnv1a.
@Suite struct SynthHashTests {
    static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Synth/coin-seed7.fnv1a").standardized.path

    /// FNV-1a, 64-bit, of the floats' little-endian bytes.
    static func fnv1a(_ samples: [Float]) -> String {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for sample in samples {
            var bits = sample.bitPattern.littleEndian
            for _ in 0..<4 {
                value = (value ^ UInt64(bits & 0xFF)) &* 0x100_0000_01b3
                bits >>= 8
            }
        }
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    @Test func coinSeedSevenIsTheSharedReference() throws {
        let assets = try TestAssets()  // a temporary folder, removed at the end
        let root = assets.root
        let engine = try AudioEngine(output: .offline(sampleRate: 48_000, channels: 2))
        let system = SoundSystem(
            engine: engine, catalogue: try Catalogue(json: Array(#"{"sounds": []}"#.utf8), root: root),
            pcmCache: nil)
        let coin = try system.synth("coin", try SynthSound(parsing: #"{"preset": "coin", "seed": 7}"#))
        #expect(engine.triggerPort.play(coin) != nil)
        let mix = try engine.render(frames: 24_000)
        #expect(AudioAnalysis.rms(mix) > 0.01)
        let hash = Self.fnv1a(mix.samples)
        let recording = ProcessInfo.processInfo.environment["SOUNDSTATION_RECORD_GOLDEN"] == "1"
        guard !recording, let stored = try? String(contentsOfFile: Self.golden, encoding: .utf8) else {
            try (hash + "\n").write(toFile: Self.golden, atomically: true, encoding: .utf8)
            return
        }
        #expect(
            stored.trimmingCharacters(in: .whitespacesAndNewlines) == hash,
            "the coin's render changed; if meant, record it again with SOUNDSTATION_RECORD_GOLDEN=1")
    }
}
