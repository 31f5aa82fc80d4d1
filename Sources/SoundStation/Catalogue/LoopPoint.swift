/// A position inside a sound, used for loop starts and ends.
///
/// The manifest writes frames as a JSON integer (`96000`) and seconds as a string ending in
/// `s` (`"1.5s"`). Seconds are kept as written because the sample rate is only known once
/// the file is decoded.
public enum LoopPoint: Sendable, Equatable {
    /// An exact frame index, independent of the file's sample rate.
    case frames(Int)
    /// A time offset that becomes a frame once the sample rate is known.
    case seconds(Double)

    /// The frame this point falls on in audio of the given sample rate, rounded to nearest.
    /// - Parameter sampleRate: The decoded audio's frames per second.
    /// - Returns: The frame index: a `.frames` point unchanged, a `.seconds` point times the rate.
    public func frame(atSampleRate sampleRate: Int) -> Int {
        switch self {
        case .frames(let frames):
            return frames
        case .seconds(let seconds):
            return Int((seconds * Double(sampleRate)).rounded())
        }
    }

    /// Reads the manifest spelling: an integer frame count or a string like `"1.5s"`.
    /// Returns nil for anything else, including negative or non-finite values.
    init?(manifestValue value: ManifestJSON.Value) {
        switch value {
        case .integer(let frames) where frames >= 0:
            self = .frames(frames)
        case .string(let text) where text.hasSuffix("s"):
            let number = text.dropLast()
            // Double("inf") and friends parse, so finiteness is checked explicitly.
            guard number.first?.isNumber == true || number.first == ".",
                let seconds = Double(number), seconds.isFinite, seconds >= 0
            else { return nil }
            self = .seconds(seconds)
        default:
            return nil
        }
    }
}
