/// How the samples in a WAV `data` chunk are stored, parsed from its `fmt ` chunk.
struct WAVFormat: Equatable {
    /// The sample encodings the decoder converts to Float.
    enum Encoding: Equatable {
        /// Unsigned 8-bit samples centred on 128.
        case unsigned8
        /// Signed little-endian integers of 2, 3 or 4 bytes.
        case signed(bytes: Int)
        /// IEEE float of 4 or 8 bytes.
        case float(bytes: Int)
        /// A compressed or unusual encoding (mu-law, A-law, ADPCM, 12 or 20-bit packed PCM, ...) that
        /// libsndfile decodes; `name` is what to call it.
        case library(name: String)

        var bytesPerSample: Int {
            switch self {
            case .unsigned8: return 1
            case .signed(let bytes), .float(let bytes): return bytes
            case .library: return 1
            }
        }

        /// How `soundstation catalogue` names it.
        var name: String {
            switch self {
            case .unsigned8: return "PCM 8-bit"
            case .signed(let bytes): return "PCM \(bytes * 8)-bit"
            case .float(let bytes): return "float \(bytes * 8)-bit"
            case .library(let name): return name
            }
        }
    }

    let encoding: Encoding
    let channels: Int
    let sampleRate: Int
    /// The format tag (from the sub-format GUID of an extensible file).
    let tag: Int
    /// The speaker mask of a WAVE_FORMAT_EXTENSIBLE file, 0 when there is none.
    let channelMask: UInt32

    /// Where each channel plays: from the speaker mask when it names them all, else the usual order.
    var channelRoles: [ChannelRole] {
        ChannelRole.fromWaveMask(channelMask, channels: channels)
            ?? ChannelRole.smpteDefault(channels: channels)
    }

    var bytesPerFrame: Int { encoding.bytesPerSample * channels }

    /// Rates above this are not audio a game plays but a damaged header.
    static let maximumSampleRate = 1_536_000

    private static let pcmTag = 1
    private static let floatTag = 3
    private static let extensibleTag = 0xFFFE
    /// The bytes after the first two of the KSDATAFORMAT_SUBTYPE GUIDs for PCM and IEEE float.
    private static let subFormatGUIDTail: [UInt8] = [
        0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71,
    ]

    /// The most channels a file may have; more is a damaged header, not a sound.
    static let maximumChannels = 64

    /// Parses the body of a `fmt ` chunk.
    /// - Parameters:
    ///   - body: The chunk's bytes.
    ///   - bigEndian: True in a RIFX file, whose numbers are big-endian.
    ///   - name: The file name for error messages.
    init(chunk body: [UInt8], bigEndian: Bool = false, name: String) throws(AudioDecodingError) {
        guard body.count >= 16 else {
            throw .corrupt(
                path: name, reason: "the 'fmt ' chunk is \(body.count) bytes, at least 16 expected")
        }
        var tag = Int(body.uint16(at: 0, bigEndian: bigEndian))
        let channels = Int(body.uint16(at: 2, bigEndian: bigEndian))
        let sampleRate = Int(body.uint32(at: 4, bigEndian: bigEndian))
        let bits = Int(body.uint16(at: 14, bigEndian: bigEndian))
        var mask: UInt32 = 0

        if tag == Self.extensibleTag {
            // The real encoding sits in a GUID; its first two bytes are the classic format tag.
            guard body.count >= 40 else {
                throw .corrupt(
                    path: name,
                    reason: "WAVE_FORMAT_EXTENSIBLE 'fmt ' chunk is \(body.count) bytes, 40 expected")
            }
            guard Array(body[26..<40]) == Self.subFormatGUIDTail else {
                throw .unsupportedFormat(
                    path: name,
                    reason: "WAVE_FORMAT_EXTENSIBLE with a sub-format GUID that is not a WAVE format tag")
            }
            // wBitsPerSample stays the container size; fewer valid bits are left-justified in it,
            // so reading the whole container gives the right value.
            tag = Int(body.uint16(at: 24, bigEndian: bigEndian))
            mask = body.uint32(at: 20, bigEndian: bigEndian)
        }

        guard channels > 0 else {
            throw .corrupt(path: name, reason: "the 'fmt ' chunk declares 0 channels")
        }
        guard channels <= Self.maximumChannels else {
            throw .unsupportedFormat(path: name, reason: "\(channels) channels (at most 64 are read)")
        }
        guard sampleRate > 0 else {
            throw .corrupt(path: name, reason: "the 'fmt ' chunk declares a sample rate of 0 Hz")
        }
        guard sampleRate <= Self.maximumSampleRate else {
            throw .unsupportedFormat(path: name, reason: "a sample rate of \(sampleRate) Hz")
        }
        self.channels = channels
        self.sampleRate = sampleRate
        self.channelMask = mask
        self.tag = tag
        self.encoding = try Self.encoding(tag: tag, bits: bits, name: name)
    }

    private static func encoding(tag: Int, bits: Int, name: String) throws(AudioDecodingError) -> Encoding {
        switch (tag, bits) {
        case (pcmTag, 8): return .unsigned8
        case (pcmTag, 16), (pcmTag, 24), (pcmTag, 32): return .signed(bytes: bits / 8)
        case (floatTag, 32), (floatTag, 64): return .float(bytes: bits / 8)
        case (pcmTag, 1...64):
            // Packed widths (12 or 20 bits in 2 or 3 bytes without the extensible header).
            return .library(name: "PCM \(bits)-bit")
        case (pcmTag, _):
            throw .unsupportedFormat(path: name, reason: "\(bits)-bit integer PCM (1 to 64 bits expected)")
        case (floatTag, _):
            throw .unsupportedFormat(path: name, reason: "\(bits)-bit float (32 or 64 expected)")
        default:
            guard let codec = libraryCodecName(tag: tag) else {
                throw .unsupportedFormat(path: name, reason: "\(codecName(tag: tag)) (format tag \(tag))")
            }
            return .library(name: codec)
        }
    }

    /// The encodings libsndfile 1.2 decodes inside a WAV file.
    private static func libraryCodecName(tag: Int) -> String? {
        switch tag {
        case 0x0002: return "MS ADPCM"
        case 0x0006: return "A-law"
        case 0x0007: return "mu-law"
        case 0x0011: return "IMA ADPCM"
        case 0x0031: return "GSM 6.10"
        case 0x0040: return "G.721 ADPCM"
        case 0x0055: return "MP3"
        default: return nil
        }
    }

    /// Names the compressed encodings people most often export by mistake, so the message is actionable.
    private static func codecName(tag: Int) -> String {
        switch tag {
        case 0x0002: return "ADPCM"
        case 0x0006: return "A-law"
        case 0x0007: return "mu-law"
        case 0x0011: return "IMA ADPCM"
        case 0x0031: return "GSM 6.10"
        case 0x0050: return "MPEG audio"
        case 0x0055: return "MP3"
        case 0x2000: return "AC-3"
        default: return "an unknown encoding"
        }
    }
}

extension Array where Element == UInt8 {
    /// Reads a UInt16 in either byte order; callers check the bounds first.
    func uint16(at offset: Int, bigEndian: Bool) -> UInt16 {
        bigEndian ? UInt16(self[offset]) << 8 | UInt16(self[offset + 1]) : littleEndianUInt16(at: offset)
    }

    /// Reads a UInt32 in either byte order; callers check the bounds first.
    func uint32(at offset: Int, bigEndian: Bool) -> UInt32 {
        guard bigEndian else { return littleEndianUInt32(at: offset) }
        return UInt32(self[offset]) << 24 | UInt32(self[offset + 1]) << 16 | UInt32(self[offset + 2]) << 8
            | UInt32(self[offset + 3])
    }

    /// Reads a little-endian UInt64; callers check the bounds first.
    func littleEndianUInt64(at offset: Int) -> UInt64 {
        UInt64(littleEndianUInt32(at: offset)) | UInt64(littleEndianUInt32(at: offset + 4)) << 32
    }

    /// Reads a little-endian UInt16; callers check the bounds first.
    func littleEndianUInt16(at offset: Int) -> UInt16 {
        UInt16(self[offset]) | UInt16(self[offset + 1]) << 8
    }

    /// Reads a little-endian UInt32; callers check the bounds first.
    func littleEndianUInt32(at offset: Int) -> UInt32 {
        UInt32(self[offset]) | UInt32(self[offset + 1]) << 8 | UInt32(self[offset + 2]) << 16
            | UInt32(self[offset + 3]) << 24
    }
}
