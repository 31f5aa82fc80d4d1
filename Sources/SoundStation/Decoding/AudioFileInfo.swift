/// The container and codec of an audio file, as recognised from its first bytes.
public enum AudioFileFormat: String, Sendable {
    /// RIFF/WAVE holding PCM integer or IEEE float samples.
    case wav
    /// Ogg container holding a Vorbis stream.
    case oggVorbis
}

/// What a file holds, learned from its headers without decoding the audio.
///
/// The asset pipeline uses this to decide between loading a sound whole and streaming it.
public struct AudioFileInfo: Sendable, Equatable {
    /// The container and codec.
    public let format: AudioFileFormat
    /// Frames per second.
    public let sampleRate: Int
    /// Samples per frame: 1 (mono) or 2 (stereo).
    public let channels: Int
    /// The number of frames the file declares.
    public let frameCount: Int

    /// Creates a description of an audio file.
    /// - Parameters:
    ///   - format: The container and codec.
    ///   - sampleRate: Frames per second.
    ///   - channels: Samples per frame.
    ///   - frameCount: The number of frames.
    public init(format: AudioFileFormat, sampleRate: Int, channels: Int, frameCount: Int) {
        self.format = format
        self.sampleRate = sampleRate
        self.channels = channels
        self.frameCount = frameCount
    }

    /// The length in seconds.
    public var duration: Double { sampleRate > 0 ? Double(frameCount) / Double(sampleRate) : 0 }
}
