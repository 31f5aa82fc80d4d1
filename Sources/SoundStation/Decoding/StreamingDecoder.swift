/// A decoder that reads a file piece by piece, for music that streams instead of being held decoded.
///
/// ``WAVStreamDecoder`` (PCM and float WAV), ``SndFileDecoder`` (compressed WAV, AIFF, FLAC, Opus,
/// MP3), ``VorbisFileDecoder`` (Ogg Vorbis) and
/// ``ModuleDecoder`` (MOD, XM, S3M, IT) implement it; ``AudioDecoder/openStream(fileAt:options:)``
/// opens the right one from the file's contents. Every decoder gives mono or stereo: files with more
/// channels are mixed down as its ``DecodingOptions`` say. Not thread-safe: one decoder per stream.
public protocol StreamingDecoder: AnyObject {
    /// Format, rate, channels as read and the frame count.
    var info: AudioFileInfo { get }

    /// Reads the next frames.
    /// - Parameter maxFrames: The most frames to return; fewer come back only at the end.
    /// - Returns: Interleaved samples in -1...1, a multiple of `info.channels`; empty at the end.
    /// - Throws: ``AudioDecodingError`` naming the file when its data cannot be decoded.
    func read(maxFrames: Int) throws(AudioDecodingError) -> [Float]

    /// Moves to a frame so the next ``read(maxFrames:)`` starts exactly there.
    /// - Parameter frame: The frame to read next; values beyond the ends are clamped.
    /// - Throws: ``AudioDecodingError`` naming the file when it cannot seek.
    func seek(toFrame frame: Int) throws(AudioDecodingError)
}

extension StreamingDecoder {
    /// Reads from the current position to the end, growing the buffer only as samples arrive, so a
    /// header that claims gigabytes allocates nothing it does not fill.
    /// - Parameters:
    ///   - declaredFrames: The frames the file claims, to report a file cut short.
    ///   - byteCount: The file's size, which bounds the first reservation.
    ///   - name: The file name for the warning.
    ///   - options: Whether a short file is an error or a warning.
    /// - Returns: The decoded audio.
    func readRemaining(
        declaredFrames: Int, byteCount: Int, name: String, options: DecodingOptions
    ) throws(AudioDecodingError) -> PCMAudio {
        let channels = info.channels
        var samples: [Float] = []
        samples.reserveCapacity(min(max(declaredFrames, 0), byteCount) * channels)
        while true {
            try checkCancellation(name)
            let chunk = try read(maxFrames: 16_384)
            if chunk.isEmpty { break }
            samples.append(contentsOf: chunk)
            try AudioDecoder.checkDecodedSoFar(samples: samples.count, name: name)
        }
        let frames = samples.count / max(channels, 1)
        if frames < declaredFrames {
            try options.cutShort(
                path: name, reason: "the header declares \(declaredFrames) frames, \(frames) could be decoded"
            )
        }
        return PCMAudio(sampleRate: info.sampleRate, channels: channels, samples: samples)
    }
}

extension StreamingDecoder {
    /// Renders one pass to its end, a chunk at a time with a check for cancellation between chunks:
    /// the whole decode of the decoders that render a song (chiptunes, MIDI songs).
    /// - Parameters:
    ///   - expectedFrames: The frames of the pass, reserved up front.
    ///   - name: The file name, for a cancellation's message.
    /// - Returns: The audio, in the decoder's format.
    /// - Throws: ``AudioDecodingError`` when the decoder fails mid-song or the load is cancelled.
    func renderPass(expectedFrames: Int, name: String) throws(AudioDecodingError) -> PCMAudio {
        var samples: [Float] = []
        samples.reserveCapacity(expectedFrames * info.channels)
        while true {
            try checkCancellation(name)
            let chunk = try read(maxFrames: 16_384)
            if chunk.isEmpty { break }
            samples.append(contentsOf: chunk)
        }
        return PCMAudio(sampleRate: info.sampleRate, channels: info.channels, samples: samples)
    }
}

/// Stops a whole-file decode between chunks when its task is cancelled (a preload cancelled by Ctrl-C),
/// so that no decode outlives the call that asked for it by more than one chunk.
/// - Parameter name: The file, for the message.
/// - Throws: ``AudioDecodingError/unreadable(path:reason:)`` saying the load was cancelled.
func checkCancellation(_ name: String) throws(AudioDecodingError) {
    if Task.isCancelled { throw .unreadable(path: name, reason: "the load was cancelled") }
}
