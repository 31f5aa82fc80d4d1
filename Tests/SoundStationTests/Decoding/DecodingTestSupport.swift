import Foundation

/// Reference signals and measurements shared by the decoding tests.
enum DecodingTestSignal {
    /// An interleaved sine; channel `c` is at `frequency * (c + 1)` so swapped channels are caught.
    static func sine(
        frequency: Double, rate: Int, frames: Int, channels: Int = 1, amplitude: Double = 0.5
    ) -> [Float] {
        var samples = [Float](repeating: 0, count: frames * channels)
        for frame in 0..<frames {
            for channel in 0..<channels {
                let phase = 2 * Double.pi * frequency * Double(channel + 1) * Double(frame) / Double(rate)
                samples[frame * channels + channel] = Float(amplitude * sin(phase))
            }
        }
        return samples
    }

    /// Deterministic white noise in -amplitude...amplitude; it makes Vorbis files realistically large.
    static func noise(count: Int, amplitude: Float, seed: UInt64 = 1) -> [Float] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return amplitude * (Float(state >> 40) / Float(1 << 23) - 1)
        }
    }

    /// A ramp from -1 towards 1 in equal steps, hitting every region of the sample range.
    static func ramp(count: Int) -> [Float] {
        (0..<count).map { -1 + 2 * Float($0) / Float(count) }
    }

    /// One channel out of interleaved samples.
    static func channel(_ channel: Int, of samples: [Float], channels: Int) -> [Float] {
        stride(from: channel, to: samples.count, by: channels).map { samples[$0] }
    }

    /// Sign changes, a robust frequency estimate for a clean tone.
    static func zeroCrossings(_ samples: [Float]) -> Int {
        zip(samples, samples.dropFirst()).filter { ($0 < 0) != ($1 < 0) }.count
    }

    static func maxDifference(_ a: [Float], _ b: [Float]) -> Float {
        zip(a, b).reduce(0) { max($0, abs($1.0 - $1.1)) }
    }
}

/// A fresh directory under the system temporary directory, removed by `remove()`.
struct DecodingTestDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "SoundStationTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    func write(_ bytes: [UInt8], to name: String) throws -> String {
        let path = path(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    func read(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
