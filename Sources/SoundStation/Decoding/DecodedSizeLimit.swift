extension AudioDecoder {
    /// The most memory one sound decoded whole may take: 1 GiB of samples (about 93 minutes of
    /// 48 kHz stereo). A longer file is refused with ``AudioDecodingError/tooLarge(path:reason:)``,
    /// which says to stream it, instead of a load that runs for minutes and takes gigabytes. An
    /// uncompressed WAV is refused before anything is decoded, from the frames its data holds, and an
    /// Ogg Vorbis file from the length its last page gives (what its decode would allocate); other
    /// formats, whose headers may lie in either direction, once their decoded samples pass this.
    public static let maximumDecodedBytes = 1 << 30

    /// Refuses, before decoding, a sound of `frames` frames of `channels` channels that would not fit
    /// in ``maximumDecodedBytes``.
    /// - Throws: ``AudioDecodingError/tooLarge(path:reason:)`` naming the size it would take.
    static func checkHoldable(frames: Int, channels: Int, sampleRate: Int, name: String)
        throws(AudioDecodingError)
    {
        let (bytes, overflow) = frames.multipliedReportingOverflow(by: max(channels, 1) * 4)
        guard overflow || bytes > maximumDecodedBytes else { return }
        let minutes = sampleRate > 0 ? frames / sampleRate / 60 : 0
        throw .tooLarge(
            path: name,
            reason: "its \(frames) frames of \(channels) channel(s) (\(minutes) minutes) would take "
                + "\(gibibytes(overflow ? .max : bytes)) decoded, more than the "
                + "\(gibibytes(maximumDecodedBytes)) one sound held in memory may take")
    }

    /// Stops a decode whose samples so far (`samples` floats) have passed ``maximumDecodedBytes``.
    /// - Throws: ``AudioDecodingError/tooLarge(path:reason:)``.
    static func checkDecodedSoFar(samples: Int, name: String) throws(AudioDecodingError) {
        guard samples > maximumDecodedBytes / 4 else { return }
        throw .tooLarge(
            path: name,
            reason: "it decodes to more than the \(gibibytes(maximumDecodedBytes)) one sound held in "
                + "memory may take")
    }

    /// `bytes` in GiB with one decimal, e.g. "4.0 GiB".
    static func gibibytes(_ bytes: Int) -> String {
        let tenths = Int((Double(bytes) / Double(1 << 30) * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) GiB"
    }
}
