import Foundation
import SoundStation

/// A game's reference render kept as a WAV file beside its tests: a test renders a scene offline and
/// compares the samples with the file, so any change to what the game sounds like fails it.
///
/// The first run (no file yet), or any run with `SOUNDSTATION_RECORD_GOLDEN=1` in the environment,
/// writes the file as 32-bit float (lossless) and fails with ``GoldenAudioError/recorded(path:)``, so
/// a golden file is never made silently; listen to it, commit it, run again.
///
/// ```swift
/// let mix = try engine.render(frames: 48_000)
/// try GoldenAudio(path: "Tests/Golden/menu.wav").check(mix)
/// ```
public struct GoldenAudio: Sendable {
    /// The reference file.
    public let path: String
    /// The largest difference of a sample that still matches, in dBFS: -90 (about 1 in 32,000) by
    /// default, so a change in how an effect is mixed fails while float rounding between machines
    /// does not.
    public let tolerance: Double

    /// A golden file.
    /// - Parameters:
    ///   - path: The WAV file; relative paths are from the current directory.
    ///   - tolerance: The largest sample difference that still matches, in dBFS.
    public init(path: String, tolerance: Double = -90) {
        self.path = path
        self.tolerance = tolerance
    }

    /// Compares `audio` with the golden file, recording it when there is none (or when asked).
    /// - Parameter audio: The render.
    /// - Returns: How close it came.
    /// - Throws: ``GoldenAudioError`` naming the file, and the first frame and channel that differ.
    @discardableResult
    public func check(_ audio: PCMAudio) throws(GoldenAudioError) -> GoldenComparison {
        let recording = ProcessInfo.processInfo.environment["SOUNDSTATION_RECORD_GOLDEN"] == "1"
        if recording || !FileManager.default.fileExists(atPath: path) {
            let folder = (path as NSString).deletingLastPathComponent
            do {
                if !folder.isEmpty {
                    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                }
                try WAVWriter.write(audio, toFileAt: path, format: .float32)
            } catch {
                throw .unreadable(path: path, reason: "could not write it: \(error)")
            }
            throw .recorded(path: path)
        }
        let golden: PCMAudio
        do { golden = try AudioDecoder.decode(fileAt: path) } catch {
            throw .unreadable(path: path, reason: error.description)
        }
        guard golden.sampleRate == audio.sampleRate, golden.channels == audio.channels,
            golden.frameCount == audio.frameCount
        else {
            throw .differentShape(
                path: path, golden: Self.shape(golden), rendered: Self.shape(audio))
        }
        // One pass finds the largest difference and the first sample past the tolerance.
        let limit = Float(pow(10, tolerance / 20))
        var largest: Float = 0
        var first: Int?
        for index in audio.samples.indices {
            let difference = abs(audio.samples[index] - golden.samples[index])
            largest = max(largest, difference)
            if first == nil, difference > limit { first = index }
        }
        let comparison = GoldenComparison(largest: largest)
        if let first {
            throw .differs(
                path: path, frame: first / audio.channels, channel: first % audio.channels,
                difference: comparison.largestDecibels, tolerance: tolerance)
        }
        return comparison
    }

    private static func shape(_ audio: PCMAudio) -> String {
        "\(audio.frameCount) frames, \(audio.channels) channel(s) at \(audio.sampleRate) Hz"
    }
}

/// How a render compared with its golden file.
public struct GoldenComparison: Sendable, Equatable {
    /// The largest absolute difference of a sample (0 when identical).
    public let largest: Float

    /// The largest difference in dBFS (-infinity when identical).
    public var largestDecibels: Double { AudioAnalysis.decibels(Double(largest)) }
}

/// Why a render did not match its golden file.
public enum GoldenAudioError: Error, CustomStringConvertible, Equatable, Sendable {
    /// There was no golden file (or recording was asked for): the render was written there.
    case recorded(path: String)
    /// The golden file could not be read or written.
    case unreadable(path: String, reason: String)
    /// The render and the file differ in length, channels or rate.
    case differentShape(path: String, golden: String, rendered: String)
    /// A sample differs by more than the tolerance.
    case differs(path: String, frame: Int, channel: Int, difference: Double, tolerance: Double)

    /// One line naming the file and what to do.
    public var description: String {
        switch self {
        case .recorded(let path):
            "recorded the golden file \(path): listen to it, commit it and run the test again"
        case .unreadable(let path, let reason): "golden file \(path): \(reason)"
        case .differentShape(let path, let golden, let rendered):
            "golden file \(path) holds \(golden), the render \(rendered)"
        case .differs(let path, let frame, let channel, let difference, let tolerance):
            "the render differs from \(path) from frame \(frame) (channel \(channel)) on, by up to "
                + "\(String(format: "%.1f", difference)) dBFS (tolerance \(String(format: "%.1f", tolerance)) dBFS); "
                + "if the change is meant, record it again with SOUNDSTATION_RECORD_GOLDEN=1"
        }
    }
}
