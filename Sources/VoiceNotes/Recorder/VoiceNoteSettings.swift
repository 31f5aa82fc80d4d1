/// The Vorbis encoder quality of a note: a trade of file size against fidelity.
public enum VoiceNoteQuality: String, Sendable, CaseIterable, Equatable {
    /// Smallest files; speech stays intelligible.
    case low
    /// A balance for long notes.
    case medium
    /// Clear speech at a modest size; the default.
    case high
    /// Largest files.
    case max

    /// The Vorbis VBR quality (-0.1...1) this level encodes at.
    ///
    /// Spread over the range libvorbisenc accepts at speech rates: at 12 kHz mono, 0 gives about
    /// 16 kbit/s and 1.0 about 50 kbit/s.
    public var vorbisQuality: Float {
        switch self {
        case .low: 0.0
        case .medium: 0.3
        case .high: 0.6
        case .max: 1.0
        }
    }
}

/// The file format a note is written in.
public enum VoiceNoteFormat: String, Sendable, CaseIterable, Equatable {
    /// Ogg Vorbis, the default: small and survives a crash up to its last flushed page.
    case oggVorbis = "ogg"
    /// 16-bit PCM WAV: large, but readable by anything.
    case wav

    /// The file extension, without the dot.
    public var fileExtension: String { rawValue }

    /// A name for people.
    public var displayName: String {
        switch self {
        case .oggVorbis: "Ogg Vorbis"
        case .wav: "WAV (16-bit PCM)"
        }
    }

    /// The format a file name's extension stands for, if it is a note's.
    /// - Parameter fileExtension: The extension without the dot, any case.
    public init?(fileExtension: String) {
        switch fileExtension.lowercased() {
        case "ogg", "oga": self = .oggVorbis
        case "wav": self = .wav
        default: return nil
        }
    }
}

/// How a note is recorded: format, sample rate, channels and encoder quality.
public struct VoiceNoteSettings: Sendable, Equatable {
    /// Frames per second; 12000 by default, plenty for speech.
    public var sampleRate: Int
    /// 1 (mono, the default) or 2.
    public var channels: Int
    /// Encoder quality (ignored for WAV).
    public var quality: VoiceNoteQuality
    /// The file format.
    public var format: VoiceNoteFormat

    /// The rates a capture device and the encoder both accept.
    public static let sampleRates = 8_000...192_000

    /// Creates settings; the defaults suit speech: 12000 Hz, mono, high quality, in Ogg Vorbis.
    ///
    /// Values are checked by ``validate()``, which recording calls before opening anything.
    /// - Parameters:
    ///   - sampleRate: Frames per second, within ``sampleRates``.
    ///   - channels: 1 (mono) or 2 (stereo).
    ///   - quality: The Vorbis encoder's quality; ignored for WAV.
    ///   - format: The file format of the note.
    public init(
        sampleRate: Int = 12_000, channels: Int = 1, quality: VoiceNoteQuality = .high,
        format: VoiceNoteFormat = .oggVorbis
    ) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.quality = quality
        self.format = format
    }

    /// Checks the values before a device or file is opened, so a bad value fails with its name.
    /// - Throws: ``VoiceNoteError/invalidSettings(reason:)`` naming the value when the sample rate is
    ///   outside ``sampleRates`` or the channel count is not 1 or 2.
    public func validate() throws(VoiceNoteError) {
        guard Self.sampleRates.contains(sampleRate) else {
            throw .invalidSettings(
                reason: "a sample rate of \(sampleRate) Hz; use \(Self.sampleRates.lowerBound)..."
                    + "\(Self.sampleRates.upperBound) (12000 suits speech)")
        }
        guard channels == 1 || channels == 2 else {
            throw .invalidSettings(reason: "\(channels) channels; use 1 (mono) or 2 (stereo)")
        }
    }
}
