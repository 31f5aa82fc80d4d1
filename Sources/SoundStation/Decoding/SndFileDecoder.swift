import CSndFile

/// Decodes through libsndfile 1.2: every WAV variant the Swift decoder leaves to it (RIFX, RF64/BW64,
/// mu-law, A-law, IMA and Microsoft ADPCM, GSM 6.10, packed widths), AIFF, FLAC, Ogg Opus and MP3.
///
/// Owns one `SNDFILE` handle, opened over the file (or bytes) through libsndfile's virtual I/O so a
/// file in memory and one on disk are read the same way, and closed in `deinit`. More than two
/// channels are mixed down (or cut to two) as the ``DecodingOptions`` say. Not thread-safe: use one
/// decoder per stream.
public final class SndFileDecoder: StreamingDecoder {
    /// Format, rate, channels as read (at most 2) and the frames the file declares.
    public let info: AudioFileInfo

    private let name: String
    private let source: SeekableBytes
    private let handle: OpaquePointer
    private let mixer: ChannelMixer
    private let options: DecodingOptions
    /// A shortfall found in the container's own header before libsndfile opened it.
    private let knownShortfall: String?
    /// The frames the container declares when libsndfile reports only those present (AIFF).
    private let declaredFrames: Int?
    /// Frames returned so far by ``read(maxFrames:)``.
    private var framesRead = 0
    /// Set when libsndfile failed after returning audio (a FLAC cut inside a frame loses sync
    /// there): what it said, for the warning. The frames before are kept, as for other formats.
    private var failedAfterAudio: String?

    /// Opens a file for streaming or decoding.
    /// - Parameters:
    ///   - path: The file; it stays open until the decoder is released.
    ///   - options: Channel handling and strictness.
    /// - Throws: ``AudioDecodingError`` naming the file and what libsndfile found wrong.
    public convenience init(path: String, options: DecodingOptions = DecodingOptions())
        throws(AudioDecodingError)
    {
        let file = try InputFile(path: path)
        try self.init(source: file, name: path, options: options)
    }

    /// Decodes a file held in memory.
    /// - Parameters:
    ///   - bytes: The file's contents.
    ///   - name: The file name to use in error messages.
    ///   - options: Channel handling and strictness.
    /// - Throws: ``AudioDecodingError`` naming `name` and what libsndfile found wrong.
    public convenience init(
        bytes: [UInt8], name: String, options: DecodingOptions = DecodingOptions()
    ) throws(AudioDecodingError) {
        guard !bytes.isEmpty else { throw .unreadable(path: name, reason: "the file is empty (0 bytes)") }
        try self.init(source: bytes, name: name, options: options)
    }

    init(
        source bytes: some ByteSource, name: String, options: DecodingOptions, knownShortfall: String? = nil,
        declaredFrames: Int? = nil
    ) throws(AudioDecodingError) {
        let source = SeekableBytes(bytes)
        var virtualIO = Self.virtualIO
        var fileInfo = SF_INFO()
        guard
            let handle = sf_open_virtual(
                &virtualIO, Int32(SFM_READ), &fileInfo, Unmanaged.passUnretained(source).toOpaque())
        else {
            if let failure = source.failure { throw failure }
            throw Self.openError(String(cString: sf_strerror(nil)), name: name)
        }
        let channels = Int(fileInfo.channels)
        let frames = fileInfo.frames
        guard channels >= 1, channels <= WAVFormat.maximumChannels, fileInfo.samplerate > 0,
            fileInfo.samplerate <= Int32(WAVFormat.maximumSampleRate), frames >= 0
        else {
            sf_close(handle)
            throw .corrupt(
                path: name,
                reason:
                    "its header declares \(channels) channels at \(fileInfo.samplerate) Hz, which no sound has"
            )
        }
        let format = Self.format(of: fileInfo.format, header: bytes)
        let roles = Self.channelRoles(handle, channels: channels, format: format)
        mixer = ChannelMixer(roles: roles, selection: options.channels)
        info = AudioFileInfo(
            format: format, sampleRate: Int(fileInfo.samplerate), channels: mixer.outputChannels,
            // libsndfile reports an unknown length as the largest count; nothing is allocated from it.
            frameCount: Int(min(frames, Int64(Int32.max) * 64)),
            encoding: Self.encodingName(fileInfo.format, header: bytes),
            fileChannels: channels)
        self.handle = handle
        self.source = source
        self.name = name
        self.options = options
        self.knownShortfall = knownShortfall
        self.declaredFrames = declaredFrames
    }

    deinit {
        sf_close(handle)
    }

    /// Reads the next frames.
    /// - Parameter maxFrames: The most frames to return; fewer come back only at the end.
    /// - Returns: Interleaved samples in -1...1; empty at the end.
    /// - Throws: ``AudioDecodingError`` naming the file when libsndfile reports a decoding error.
    public func read(maxFrames: Int) throws(AudioDecodingError) -> [Float] {
        guard maxFrames > 0 else { return [] }
        let frames = min(maxFrames, 65_536)
        let channels = info.fileChannels
        var buffer = [Float](repeating: 0, count: frames * channels)
        let got = buffer.withUnsafeMutableBufferPointer {
            sf_readf_float(handle, $0.baseAddress, sf_count_t(frames))
        }
        if let failure = source.failure { throw failure }
        if got <= 0 {
            let code = sf_error(handle)
            if code != 0 {
                let message = "libsndfile: \(String(cString: sf_strerror(handle)))"
                // After audio, an error is where the readable part ends (a file cut inside a frame):
                // what came before is played, and the whole-file decode warns of the cut.
                guard framesRead > 0 else { throw .corrupt(path: name, reason: message) }
                failedAfterAudio = failedAfterAudio ?? message
            }
            return []
        }
        framesRead += Int(got)
        buffer.removeLast((frames - Int(got)) * channels)
        // Float files may hold overs or NaN; one NaN would poison the whole mix.
        for i in buffer.indices where !(buffer[i] >= -1 && buffer[i] <= 1) {
            buffer[i] = buffer[i].isNaN ? 0 : min(max(buffer[i], -1), 1)
        }
        return mixer.mix(buffer)
    }

    /// Moves to a frame so the next ``read(maxFrames:)`` starts exactly there.
    /// - Parameter frame: The frame to read next; clamped to the file.
    /// - Throws: ``AudioDecodingError`` when libsndfile cannot seek in this file.
    public func seek(toFrame frame: Int) throws(AudioDecodingError) {
        let target = sf_count_t(min(max(frame, 0), info.frameCount))
        guard sf_seek(handle, target, SEEK_SET) == target else {
            throw .corrupt(
                path: name, reason: "cannot seek to frame \(target): \(String(cString: sf_strerror(handle)))")
        }
    }

    /// Decodes from the current position to the end; a file cut short loads with a warning (or is an
    /// error when ``DecodingOptions/strict``).
    /// - Returns: The rest of the file; everything when called on a fresh decoder.
    /// - Throws: ``AudioDecodingError`` naming the file.
    public func readAll() throws(AudioDecodingError) -> PCMAudio {
        if let knownShortfall {
            try options.cutShort(path: name, reason: knownShortfall)
            return try readRemaining(
                declaredFrames: 0, byteCount: source.byteCount, name: name, options: options)
        }
        let declared = max(declaredFrames ?? 0, info.frameCount)
        let audio = try readRemaining(
            declaredFrames: declared, byteCount: source.byteCount, name: name, options: options)
        // Fewer frames than declared was warned of already; a stream of unknown length that failed
        // part-way is warned of here.
        if let failure = failedAfterAudio, audio.frameCount >= declared {
            try options.cutShort(path: name, reason: "\(failure) after \(audio.frameCount) frames")
        }
        return audio
    }

    private static let virtualIO = SF_VIRTUAL_IO(
        get_filelen: { user in
            sf_count_t(Unmanaged<SeekableBytes>.fromOpaque(user!).takeUnretainedValue().byteCount)
        },
        seek: { offset, whence, user in
            Unmanaged<SeekableBytes>.fromOpaque(user!).takeUnretainedValue().seek(
                offset: offset, whence: whence)
        },
        read: { destination, count, user in
            guard let destination else { return 0 }
            let me = Unmanaged<SeekableBytes>.fromOpaque(user!).takeUnretainedValue()
            return sf_count_t(me.read(into: destination, count: Int(clamping: count)))
        },
        write: nil,
        tell: { user in
            sf_count_t(Unmanaged<SeekableBytes>.fromOpaque(user!).takeUnretainedValue().position)
        })

    private static func openError(_ message: String, name: String) -> AudioDecodingError {
        let lower = message.lowercased()
        if lower.contains("not recognised") || lower.contains("unsupported")
            || lower.contains("not supported")
        {
            return .unsupportedFormat(path: name, reason: "libsndfile: \(message)")
        }
        if lower.contains("short") || lower.contains("end of file") || lower.contains("truncat") {
            return .truncated(path: name, reason: "libsndfile: \(message)")
        }
        return .corrupt(path: name, reason: "libsndfile cannot open it: \(message)")
    }

    private static func format(of code: Int32, header: some ByteSource) -> AudioFileFormat {
        switch code & Int32(SF_FORMAT_TYPEMASK) {
        case Int32(SF_FORMAT_AIFF): return .aiff
        case Int32(SF_FORMAT_FLAC): return .flac
        case Int32(SF_FORMAT_MPEG): return .mp3
        case Int32(SF_FORMAT_OGG):
            return code & Int32(SF_FORMAT_SUBMASK) == Int32(SF_FORMAT_OPUS) ? .oggOpus : .oggVorbis
        default: return .wav
        }
    }

    private static func encodingName(_ code: Int32, header: some ByteSource) -> String? {
        let sub: String?
        switch code & Int32(SF_FORMAT_SUBMASK) {
        case Int32(SF_FORMAT_PCM_S8), Int32(SF_FORMAT_PCM_U8): sub = "PCM 8-bit"
        case Int32(SF_FORMAT_PCM_16): sub = "PCM 16-bit"
        case Int32(SF_FORMAT_PCM_24): sub = "PCM 24-bit"
        case Int32(SF_FORMAT_PCM_32): sub = "PCM 32-bit"
        case Int32(SF_FORMAT_FLOAT): sub = "float 32-bit"
        case Int32(SF_FORMAT_DOUBLE): sub = "float 64-bit"
        case Int32(SF_FORMAT_ULAW): sub = "mu-law"
        case Int32(SF_FORMAT_ALAW): sub = "A-law"
        case Int32(SF_FORMAT_IMA_ADPCM): sub = "IMA ADPCM"
        case Int32(SF_FORMAT_MS_ADPCM): sub = "MS ADPCM"
        case Int32(SF_FORMAT_GSM610): sub = "GSM 6.10"
        case Int32(SF_FORMAT_G721_32): sub = "G.721 ADPCM"
        case Int32(SF_FORMAT_MPEG_LAYER_I): sub = "layer I"
        case Int32(SF_FORMAT_MPEG_LAYER_II): sub = "layer II"
        default: sub = nil
        }
        let major = code & Int32(SF_FORMAT_TYPEMASK)
        guard
            major == Int32(SF_FORMAT_WAV) || major == Int32(SF_FORMAT_WAVEX) || major == Int32(SF_FORMAT_RF64)
                || major == Int32(SF_FORMAT_AIFF)
        else { return sub }
        let magic = (try? header.bytes(at: 0, count: 4)) ?? []
        let container = String(decoding: magic, as: UTF8.self)
        if ["RIFX", "RF64", "BW64"].contains(container) {
            return sub.map { "\(container) \($0)" } ?? container
        }
        return sub
    }

    /// Where each channel plays: libsndfile's channel map when the file has one (a WAV speaker mask,
    /// a CAF layout), else the order the format's specification fixes.
    private static func channelRoles(_ handle: OpaquePointer, channels: Int, format: AudioFileFormat)
        -> [ChannelRole]
    {
        guard channels > 2 else { return Array([ChannelRole.left, .right].prefix(channels)) }
        var map = [Int32](repeating: 0, count: channels)
        let found = map.withUnsafeMutableBytes {
            sf_command(handle, Int32(SFC_GET_CHANNEL_MAP_INFO), $0.baseAddress, Int32($0.count))
        }
        if found == SF_TRUE, map.allSatisfy({ Int($0) != SF_CHANNEL_MAP_INVALID }) {
            return map.map(role(ofMapEntry:))
        }
        return format == .oggOpus || format == .oggVorbis
            ? ChannelRole.vorbisOrder(channels: channels) : ChannelRole.smpteDefault(channels: channels)
    }

    private static func role(ofMapEntry entry: Int32) -> ChannelRole {
        switch Int(entry) {
        case SF_CHANNEL_MAP_LEFT, SF_CHANNEL_MAP_FRONT_LEFT,
            SF_CHANNEL_MAP_FRONT_LEFT_OF_CENTER:
            return .left
        case SF_CHANNEL_MAP_RIGHT, SF_CHANNEL_MAP_FRONT_RIGHT,
            SF_CHANNEL_MAP_FRONT_RIGHT_OF_CENTER:
            return .right
        case SF_CHANNEL_MAP_CENTER, SF_CHANNEL_MAP_FRONT_CENTER, SF_CHANNEL_MAP_MONO:
            return .centre
        case SF_CHANNEL_MAP_LFE: return .lfe
        case SF_CHANNEL_MAP_REAR_LEFT, SF_CHANNEL_MAP_SIDE_LEFT: return .surroundLeft
        case SF_CHANNEL_MAP_REAR_RIGHT, SF_CHANNEL_MAP_SIDE_RIGHT: return .surroundRight
        case SF_CHANNEL_MAP_REAR_CENTER: return .backCentre
        case SF_CHANNEL_MAP_TOP_FRONT_LEFT, SF_CHANNEL_MAP_TOP_REAR_LEFT: return .topLeft
        case SF_CHANNEL_MAP_TOP_FRONT_RIGHT, SF_CHANNEL_MAP_TOP_REAR_RIGHT: return .topRight
        case SF_CHANNEL_MAP_TOP_CENTER, SF_CHANNEL_MAP_TOP_FRONT_CENTER,
            SF_CHANNEL_MAP_TOP_REAR_CENTER:
            return .topCentre
        default: return .unknown
        }
    }
}
