import CSoundStationRT

/// Decodes MPEG audio (MP3, and MP2 and MP1) through libmpg123 itself, with its `MPG123_QUIET` flag.
///
/// libsndfile decodes MP3 through libmpg123 too, but leaves the flag off, so a damaged file makes
/// libmpg123 write "Illegal Audio-MPEG-Header" and "dequantization failed" on the game's terminal.
/// libmpg123 is loaded at run time (it comes with libsndfile), so the library gains no link
/// dependency. Output is 32-bit float, gapless, at the file's own rate. Not thread-safe: use one
/// decoder per stream.
final class MPEGDecoder: StreamingDecoder {
    /// Format, rate, channels and the frames the stream holds (as libmpg123 counts them).
    let info: AudioFileInfo

    private let name: String
    private let source: SeekableBytes
    private let handle: OpaquePointer
    private let options: DecodingOptions

    /// Opens MPEG audio read from `bytes`.
    /// - Parameters:
    ///   - bytes: The file (or its contents).
    ///   - name: The file name for messages.
    ///   - options: Strictness and where warnings go.
    /// - Throws: ``AudioDecodingError`` naming the file when libmpg123 finds no MPEG audio in it.
    init(source bytes: some ByteSource, name: String, options: DecodingOptions) throws(AudioDecodingError) {
        let source = SeekableBytes(bytes)
        var rate = 0
        var channels: Int32 = 0
        var frames: Int64 = -1
        var error = [CChar](repeating: 0, count: 256)
        guard
            let handle = ssq_mp3_open(
                Unmanaged.passUnretained(source).toOpaque(), Self.readBytes, Self.seekBytes, &rate, &channels,
                &frames, &error, error.count)
        else {
            if let failure = source.failure { throw failure }
            throw .corrupt(path: name, reason: Self.text(error))
        }
        self.handle = handle
        self.source = source
        self.name = name
        self.options = options
        info = AudioFileInfo(
            format: .mp3, sampleRate: rate, channels: Int(channels), frameCount: Int(max(frames, 0)))
    }

    deinit {
        ssq_mp3_close(handle)
    }

    /// Reads the next frames.
    /// - Parameter maxFrames: The most frames to return; fewer come back only at the end.
    /// - Returns: Interleaved samples in -1...1; empty at the end.
    /// - Throws: ``AudioDecodingError`` naming the file when libmpg123 gives up on it.
    func read(maxFrames: Int) throws(AudioDecodingError) -> [Float] {
        guard maxFrames > 0 else { return [] }
        let frames = min(maxFrames, 65_536)
        var buffer = [Float](repeating: 0, count: frames * info.channels)
        var error = [CChar](repeating: 0, count: 256)
        let got = buffer.withUnsafeMutableBufferPointer {
            ssq_mp3_read(handle, $0.baseAddress, frames, &error, error.count)
        }
        if let failure = source.failure { throw failure }
        guard got >= 0 else { throw .corrupt(path: name, reason: Self.text(error)) }
        buffer.removeLast((frames - got) * info.channels)
        for i in buffer.indices where !(buffer[i] >= -1 && buffer[i] <= 1) {
            buffer[i] = buffer[i].isNaN ? 0 : min(max(buffer[i], -1), 1)
        }
        return buffer
    }

    /// Moves to a frame so the next ``read(maxFrames:)`` starts there.
    /// - Parameter frame: The frame to read next; clamped to the stream.
    /// - Throws: ``AudioDecodingError`` when libmpg123 cannot seek in it.
    func seek(toFrame frame: Int) throws(AudioDecodingError) {
        var error = [CChar](repeating: 0, count: 256)
        let target = Int64(min(max(frame, 0), info.frameCount))
        guard ssq_mp3_seek(handle, target, &error, error.count) == 0 else {
            throw .corrupt(path: name, reason: Self.text(error))
        }
    }

    /// Decodes from the current position to the end; fewer frames than the stream's length (damaged
    /// frames libmpg123 skipped) load with a warning, or are an error when strict.
    /// - Returns: The rest of the stream.
    /// - Throws: ``AudioDecodingError`` naming the file.
    func readAll() throws(AudioDecodingError) -> PCMAudio {
        try readRemaining(
            declaredFrames: info.frameCount, byteCount: source.byteCount, name: name, options: options)
    }

    /// A NUL-terminated C buffer's text.
    private static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static let readBytes: ssq_read_fn = { user, buffer, count in
        guard let user, let buffer else { return -1 }
        let me = Unmanaged<SeekableBytes>.fromOpaque(user).takeUnretainedValue()
        return me.read(into: buffer, count: Int(clamping: count))
    }

    private static let seekBytes: ssq_seek_fn = { user, offset, whence in
        guard let user else { return -1 }
        return Unmanaged<SeekableBytes>.fromOpaque(user).takeUnretainedValue().seek(
            offset: offset, whence: whence)
    }
}
