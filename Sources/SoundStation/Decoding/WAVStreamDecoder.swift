/// Streams a PCM or float WAV (RIFF, RIFX, RF64) with the Swift decoder, reading only the frames
/// asked for from the file.
///
/// ``AudioDecoder/openStream(fileAt:options:)`` returns it for the WAVs ``WAVDecoder`` reads; other
/// WAVs stream through ``SndFileDecoder``. Not thread-safe: use one decoder per stream.
public final class WAVStreamDecoder: StreamingDecoder {
    /// Format, rate, channels as read (at most 2) and the frames present.
    public let info: AudioFileInfo

    private let file: InputFile
    private let layout: WAVLayout
    private let mixer: ChannelMixer
    private var cursor = 0

    init(file: InputFile, layout: WAVLayout, options: DecodingOptions) throws(AudioDecodingError) {
        if options.strict, let shortfall = layout.shortfall {
            throw .truncated(path: file.path, reason: shortfall)
        }
        self.file = file
        self.layout = layout
        self.mixer = ChannelMixer(roles: layout.format.channelRoles, selection: options.channels)
        self.info = layout.info
    }

    /// Reads the next frames from the file.
    /// - Parameter maxFrames: The most frames to return; fewer only at the end.
    /// - Returns: Interleaved samples in -1...1; empty at the end.
    /// - Throws: ``AudioDecodingError`` when the file cannot be read.
    public func read(maxFrames: Int) throws(AudioDecodingError) -> [Float] {
        let frames = min(max(maxFrames, 0), 65_536, layout.frameCount - cursor)
        guard frames > 0 else { return [] }
        let format = layout.format
        let raw = try file.bytes(
            at: layout.dataOffset + cursor * format.bytesPerFrame, count: frames * format.bytesPerFrame)
        let got = raw.count / format.bytesPerFrame
        cursor += got
        let samples = raw.withUnsafeBytes {
            WAVDecoder.convert(
                $0, count: got * format.channels, from: format.encoding, bigEndian: layout.container == .rifx)
        }
        return mixer.mix(samples)
    }

    /// Moves to a frame so the next ``read(maxFrames:)`` starts exactly there.
    /// - Parameter frame: The frame to read next; clamped to the file.
    /// - Throws: Never: seeking only moves the read position; the signature is the protocol's.
    public func seek(toFrame frame: Int) throws(AudioDecodingError) {
        cursor = min(max(frame, 0), layout.frameCount)
    }
}
