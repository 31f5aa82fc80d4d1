import Foundation

@testable import SoundStation

/// A temporary assets folder written by a test: sound files made in code and a catalogue naming them.
final class TestAssets {
    let root: String
    private var entries: [String] = []

    init() throws {
        root =
            FileManager.default.temporaryDirectory.appendingPathComponent("ss-assets-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: root)
    }

    /// Writes `audio` as a float WAV and adds an entry; `extra` is raw JSON members such as `"loop": true`.
    func addWAV(_ name: String, _ audio: PCMAudio, kind: String = "effect", extra: String = "") throws {
        try WAVWriter.write(audio, toFileAt: "\(root)/\(name).wav", format: .float32)
        add(name, file: "\(name).wav", kind: kind, extra: extra)
    }

    /// Encodes `audio` as Ogg Vorbis and adds an entry.
    func addOgg(_ name: String, _ audio: PCMAudio, kind: String = "music", extra: String = "") throws {
        let encoder = try VorbisEncoder(
            path: "\(root)/\(name).ogg", sampleRate: audio.sampleRate, channels: audio.channels, quality: 0.4)
        try encoder.write(audio.samples)
        try encoder.finish()
        add(name, file: "\(name).ogg", kind: kind, extra: extra)
    }

    func add(_ name: String, file: String, kind: String, extra: String = "") {
        let more = extra.isEmpty ? "" : ", \(extra)"
        entries.append("{ \"name\": \"\(name)\", \"path\": \"\(file)\", \"kind\": \"\(kind)\"\(more) }")
    }

    /// Writes catalogue.json and loads it.
    func catalogue() throws -> Catalogue {
        let json = "{ \"sounds\": [\n" + entries.joined(separator: ",\n") + "\n] }\n"
        try json.write(toFile: "\(root)/catalogue.json", atomically: true, encoding: .utf8)
        return try Catalogue(assetsRoot: root)
    }

    /// An offline engine with every sound preloaded.
    func system(sampleRate: Int = 48_000, maxVoices: Int? = nil) async throws -> SoundSystem {
        let engine = try AudioEngine(
            output: .offline(sampleRate: sampleRate, channels: 2), maxVoices: maxVoices)
        let system = SoundSystem(engine: engine, catalogue: try catalogue())
        let loaded = try await system.bank.preload()
        try loaded.throwIfFailed()
        return system
    }
}

extension Signals {
    /// Deterministic white noise.
    static func noise(
        seconds: Double, sampleRate: Int = 48_000, amplitude: Float = 0.3, channels: Int = 1, seed: UInt64 = 1
    )
        -> PCMAudio
    {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        let count = Int(seconds * Double(sampleRate)) * channels
        let samples = (0..<count).map { _ -> Float in
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return amplitude * (Float(state >> 40) / Float(1 << 24) * 2 - 1)
        }
        return PCMAudio(sampleRate: sampleRate, channels: channels, samples: samples)
    }

    /// A stereo signal whose left and right are different tones, so a render can be compared to it
    /// channel by channel.
    static func stereoTones(
        left: Double, right: Double, seconds: Double, sampleRate: Int = 48_000, amplitude: Float = 0.4
    )
        -> PCMAudio
    {
        let l = sine(
            frequency: left, seconds: seconds, sampleRate: sampleRate, amplitude: amplitude, phase: .pi / 2)
        let r = sine(
            frequency: right, seconds: seconds, sampleRate: sampleRate, amplitude: amplitude, phase: .pi / 2)
        var samples = [Float](repeating: 0, count: l.samples.count * 2)
        for frame in 0..<l.samples.count {
            samples[frame * 2] = l.samples[frame]
            samples[frame * 2 + 1] = r.samples[frame]
        }
        return PCMAudio(sampleRate: sampleRate, channels: 2, samples: samples)
    }
}
