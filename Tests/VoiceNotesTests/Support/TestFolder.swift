import Foundation
import SoundStation

/// A temporary folder removed at the end of a test.
struct TestFolder {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "voicenotes-test-" + UUID().uuidString.prefix(8).lowercased()
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> String { path + "/" + name }

    func remove() { try? FileManager.default.removeItem(atPath: path) }

    /// Writes a short Ogg Vorbis note (a tone) and returns its path.
    @discardableResult
    func writeNote(
        _ name: String, seconds: Double = 0.5, rate: Int = 12_000, modified: Date? = nil
    ) throws -> String {
        let path = try writeNote(
            name, samples: Tone.sine(frequency: 440, seconds: seconds, rate: rate, amplitude: 0.4), rate: rate
        )
        if let modified {
            try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: path)
        }
        return path
    }

    /// Writes mono samples as an Ogg Vorbis note, the recorder's format, and returns its path.
    @discardableResult
    func writeNote(_ name: String, samples: [Float], rate: Int) throws -> String {
        let path = file(name)
        let encoder = try VorbisEncoder(path: path, sampleRate: rate, channels: 1, quality: 0.3)
        try encoder.write(samples)
        try encoder.finish()
        return path
    }

    func read(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    func write(_ bytes: [UInt8], to path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }
}

/// Test signals.
enum Tone {
    static func sine(frequency: Double, seconds: Double, rate: Int, amplitude: Float) -> [Float] {
        (0..<Int(seconds * Double(rate))).map { frame in
            amplitude * Float(sin(2 * Double.pi * frequency * Double(frame) / Double(rate)))
        }
    }
}
