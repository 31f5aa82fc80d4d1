/// Decoded audio held in memory: interleaved 32-bit float samples in -1...1.
///
/// Every decoder produces this, the engine uploads it to OpenAL, and the offline
/// renderer returns it, so tests can compare what went in with what came out.
public struct PCMAudio: Sendable, Equatable {
    /// Frames per second.
    public var sampleRate: Int
    /// Interleaved channels per frame: 1 (mono) or 2 (stereo).
    public var channels: Int
    /// Interleaved samples, `frameCount * channels` of them.
    public var samples: [Float]

    /// Creates audio from interleaved samples.
    /// - Parameters:
    ///   - sampleRate: Frames per second.
    ///   - channels: Samples per frame.
    ///   - samples: Interleaved samples; a trailing partial frame is dropped.
    public init(sampleRate: Int, channels: Int, samples: [Float]) {
        self.sampleRate = sampleRate
        self.channels = channels
        let whole = samples.count - samples.count % max(channels, 1)
        self.samples = whole == samples.count ? samples : Array(samples[..<whole])
    }

    /// The number of frames (one sample per channel).
    public var frameCount: Int { channels > 0 ? samples.count / channels : 0 }

    /// The length: frames over the sample rate.
    public var duration: Duration { sampleRate > 0 ? .frames(Int64(frameCount), rate: sampleRate) : .zero }

    /// The bytes the samples occupy in memory.
    public var byteCount: Int { samples.count * MemoryLayout<Float>.size }
}
