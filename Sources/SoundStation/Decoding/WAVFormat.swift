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

        var bytesPerSample: Int {
            switch self {
            case .unsigned8: return 1
            case .signed(let bytes), .float(let bytes): return bytes
            }
        }
    }

    let encoding: Encoding
    let channels: Int
    let sampleRate: Int

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

    /// Parses the body of a `fmt ` chunk.
    init(chunk body: [UInt8], name: String) throws(AudioDecodingError) {
        guard body.count >= 16 else {
            throw .corrupt(path: name, reason: "the 'fmt ' chunk is \(body.count) bytes, at least 16 expected")
        }
        var tag = Int(body.littleEndianUInt16(at: 0))
        let channels = Int(body.littleEndianUInt16(at: 2))
        let sampleRate = Int(body.littleEndianUInt32(at: 4))
        let bits = Int(body.littleEndianUInt16(at: 14))

        if tag == Self.extensibleTag {
            // The real encoding sits in a GUID; its first two bytes are the classic format tag.
            guard body.count >= 40 else {
                throw .corrupt(
                    path: name, reason: "WAVE_FORMAT_EXTENSIBLE 'fmt ' chunk is \(body.count) bytes, 40 expected")
            }
            guard Array(body[26..<40]) == Self.subFormatGUIDTail else {
                throw .unsupportedFormat(
                    path: name, reason: "WAVE_FORMAT_EXTENSIBLE with a sub-format GUID that is not PCM or float")
            }
            // wBitsPerSample stays the container size; fewer valid bits are left-justified in it,
            // so reading the whole container gives the right value.
            tag = Int(body.littleEndianUInt16(at: 24))
        }

        guard channels > 0 else {
            throw .corrupt(path: name, reason: "the 'fmt ' chunk declares 0 channels")
        }
        guard channels <= 2 else {
            throw .unsupportedFormat(
                path: name, reason: "\(channels) channels (only mono and stereo are played; downmix it)")
        }
        guard sampleRate > 0 else {
            throw .corrupt(path: name, reason: "the 'fmt ' chunk declares a sample rate of 0 Hz")
        }
        guard sampleRate <= Self.maximumSampleRate else {
            throw .unsupportedFormat(path: name, reason: "a sample rate of \(sampleRate) Hz")
        }
        self.channels = channels
        self.sampleRate = sampleRate
        self.encoding = try Self.encoding(tag: tag, bits: bits, name: name)
    }

    private static func encoding(tag: Int, bits: Int, name: String) throws(AudioDecodingError) -> Encoding {
        switch (tag, bits) {
        case (pcmTag, 8): return .unsigned8
        case (pcmTag, 16), (pcmTag, 24), (pcmTag, 32): return .signed(bytes: bits / 8)
        case (floatTag, 32), (floatTag, 64): return .float(bytes: bits / 8)
        case (pcmTag, _):
            throw .unsupportedFormat(path: name, reason: "\(bits)-bit integer PCM (8, 16, 24 or 32 expected)")
        case (floatTag, _):
            throw .unsupportedFormat(path: name, reason: "\(bits)-bit float (32 or 64 expected)")
        default:
            throw .unsupportedFormat(path: name, reason: "\(codecName(tag: tag)) (format tag \(tag))")
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
