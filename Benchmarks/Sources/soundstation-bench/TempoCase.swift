import Foundation
import SoundStation

/// The cost of music speed without pitch (SoundTouch time-stretching), against the same track
/// unstretched:
///
/// - `music-speed-1.25`: a 10 s stereo music track with one stereo stem (a layered track: both go
///   through one four-channel stretcher) playing at speed 1.25, rendered offline for 10 s in
///   1024-frame renders; its peer `soundstation-unstretched` is the same track at speed 1, played
///   directly. The ratio is what stretching costs a game's music.
enum TempoCase {
    static let names = ["music-speed-1.25"]

    static func run(runs: Int) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ss-bench-tempo-\(getpid())"
        )
        .path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // Chords rather than noise: the stretcher's search works on music-like material.
        for (file, root) in [("track.wav", 220.0), ("stem.wav", 330.0)] {
            var samples = [Float](repeating: 0, count: 10 * MixCase.rate * 2)
            for frame in 0..<(10 * MixCase.rate) {
                let t = Double(frame) / Double(MixCase.rate)
                let value = [1.0, 1.25, 1.5].reduce(0.0) { $0 + 0.15 * sin(2 * Double.pi * root * $1 * t) }
                samples[frame * 2] = Float(value)
                samples[frame * 2 + 1] = Float(value * 0.8)
            }
            try WAVWriter.write(
                PCMAudio(sampleRate: MixCase.rate, channels: 2, samples: samples),
                toFileAt: folder + "/" + file,
                format: .float32)
        }
        let catalogue = """
            { "sounds": [ { "name": "track", "path": "track.wav", "kind": "music", "bpm": 120,
              "stems": [ { "path": "stem.wav" } ] } ] }
            """
        try catalogue.write(toFile: folder + "/catalogue.json", atomically: true, encoding: .utf8)
        func system(speed: Double) async throws -> SoundSystem {
            let engine = try AudioEngine(output: .offline(sampleRate: MixCase.rate, channels: 2))
            let system = SoundSystem(engine: engine, catalogue: try Catalogue(assetsRoot: folder))
            try (try await system.bank.preload()).throwIfFailed()
            if speed != 1 { try system.music.setSpeed(speed) }
            try system.music.play("track")
            _ = try engine.render(frames: MixCase.chunk)
            return system
        }
        let stretched = try await system(speed: 1.25)
        let plain = try await system(speed: 1)
        var (withIt, without): ([Double], [Double]) = ([], [])
        for _ in 0..<runs {
            withIt += try MixCase.renderCPU(stretched.engine, runs: 1)
            without += try MixCase.renderCPU(plain.engine, runs: 1)
        }
        let label = "AudioEngine.render(frames: 1024) (CPU time for 10 s), a track and one stem (stereo)"
        CaseReport(case: "music-speed-1.25", unit: "ms", label: label + " at speed 1.25", samples: withIt)
            .emit()
        CaseReport(
            case: "music-speed-1.25", side: "engine-variant", peer: "soundstation-unstretched", unit: "ms",
            label: label + " at speed 1", samples: without
        ).emit()
    }
}
