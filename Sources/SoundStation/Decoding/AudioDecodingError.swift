/// Why an audio file could not be read or decoded.
///
/// Every case carries the file's path (or the name given for in-memory bytes) so a message in a log
/// points straight at the asset to fix.
public enum AudioDecodingError: Error, CustomStringConvertible, Equatable {
    /// The file cannot be opened or read, or it is empty.
    case unreadable(path: String, reason: String)
    /// The file is in no format SoundStation reads, or uses an encoding it does not play.
    case unsupportedFormat(path: String, reason: String)
    /// The file ends before the data its headers promise.
    case truncated(path: String, reason: String)
    /// The file's structure is inconsistent or the codec rejected its contents.
    case corrupt(path: String, reason: String)
    /// Decoded, the file would take more memory than one sound held in memory may
    /// (``AudioDecoder/maximumDecodedBytes``): it can be streamed instead.
    case tooLarge(path: String, reason: String)

    /// The file the error is about.
    public var path: String {
        switch self {
        case .unreadable(let path, _), .unsupportedFormat(let path, _), .truncated(let path, _),
            .corrupt(let path, _), .tooLarge(let path, _):
            return path
        }
    }

    /// One line: the file, what is wrong, and what to do about it.
    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            return "Cannot read audio file '\(path)': \(reason). Check that it exists and is readable."
        case .unsupportedFormat(let path, let reason):
            return "Unsupported audio in '\(path)': \(reason). SoundStation plays WAV (PCM, float, "
                + "mu-law, A-law, ADPCM, RIFX, RF64), AIFF, FLAC, Ogg Vorbis, Opus, MP3, MOD/XM/S3M/IT "
                + "modules, chiptunes (NSF, NSFe, SPC, GBS, VGM, VGZ, AY, HES, KSS, SAP, GYM) and MIDI; convert it (e.g. `sox IN -b 16 OUT.wav`)."
        case .truncated(let path, let reason):
            return "Audio file '\(path)' is cut short: \(reason). Re-export or re-copy it."
        case .corrupt(let path, let reason):
            return "Audio file '\(path)' is damaged: \(reason). Re-export it from the source."
        case .tooLarge(let path, let reason):
            return "Audio file '\(path)' is too large to hold decoded: \(reason). Stream it instead: "
                + "in the catalogue, a music entry with \"stream\": true (effects and voices are held "
                + "decoded: cut it shorter); in code, AudioDecoder.openStream or SoundStream."
        }
    }
}
