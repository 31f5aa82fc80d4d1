extension PCMAudio {
    /// The most channels ``init(interleaved:channels:sampleRate:selection:)`` takes.
    public static let maximumInterleavedChannels = 32
    /// The rates ``init(interleaved:channels:sampleRate:selection:)`` takes.
    public static let interleavedRates = 1000...384_000

    /// Audio from raw interleaved float samples of any channel count, as a game makes them: more than
    /// two channels are mixed to stereo as a file's are (``ChannelSelection``), samples are clipped
    /// to -1...1 and NaN becomes 0, so what OpenAL gets is always playable.
    /// - Parameters:
    ///   - samples: `frames * channels` samples, frame by frame.
    ///   - channels: Samples per frame, 1 to ``maximumInterleavedChannels`` (in the WAV/SMPTE order:
    ///     front left, front right, centre, LFE, surrounds).
    ///   - sampleRate: Frames per second, within ``interleavedRates``.
    ///   - selection: What to do with more than two channels.
    /// - Throws: ``AudioEngineError/invalidArgument(name:value:expected:)`` naming a channel count,
    ///   rate or sample count out of range.
    public init(
        interleaved samples: [Float], channels: Int, sampleRate: Int, selection: ChannelSelection = .downmix
    ) throws(AudioEngineError) {
        try Self.check(count: samples.count, channels: channels, sampleRate: sampleRate)
        let clean = samples.map { $0.isNaN ? 0 : min(max($0, -1), 1) }
        let mixer = ChannelMixer(roles: ChannelRole.smpteDefault(channels: channels), selection: selection)
        self.init(sampleRate: sampleRate, channels: mixer.outputChannels, samples: mixer.mix(clean))
    }

    /// Audio from raw interleaved signed 16-bit samples of any channel count (-32768 becomes -1).
    /// - Parameters:
    ///   - samples: `frames * channels` samples, frame by frame.
    ///   - channels: Samples per frame, 1 to ``maximumInterleavedChannels``.
    ///   - sampleRate: Frames per second, within ``interleavedRates``.
    ///   - selection: What to do with more than two channels.
    /// - Throws: ``AudioEngineError/invalidArgument(name:value:expected:)`` as the float form.
    public init(
        interleaved samples: [Int16], channels: Int, sampleRate: Int, selection: ChannelSelection = .downmix
    ) throws(AudioEngineError) {
        try self.init(
            interleaved: samples.map { Float($0) / 32768 }, channels: channels, sampleRate: sampleRate,
            selection: selection)
    }

    private static func check(count: Int, channels: Int, sampleRate: Int) throws(AudioEngineError) {
        guard (1...maximumInterleavedChannels).contains(channels) else {
            throw .invalidArgument(
                name: "channels", value: "\(channels)", expected: "1...\(maximumInterleavedChannels)")
        }
        guard interleavedRates.contains(sampleRate) else {
            throw .invalidArgument(
                name: "rate", value: "\(sampleRate)",
                expected: "\(interleavedRates.lowerBound)...\(interleavedRates.upperBound) Hz")
        }
        guard count >= channels, count % channels == 0 else {
            throw .invalidArgument(
                name: "samples", value: "\(count) samples",
                expected: "at least one whole frame: a multiple of \(channels) channels")
        }
    }
}
