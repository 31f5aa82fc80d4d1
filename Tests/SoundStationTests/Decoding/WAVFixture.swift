/// Builds WAV files byte by byte, independently of WAVWriter, so the decoder is tested against
/// hand-made headers including broken ones.
enum WAVFixture {
    /// A sample encoding a fixture can store.
    enum Encoding: CaseIterable, CustomStringConvertible {
        case unsigned8
        case int16
        case int24
        case int32
        case float32
        case float64

        var bits: Int {
            switch self {
            case .unsigned8: return 8
            case .int16: return 16
            case .int24: return 24
            case .int32, .float32: return 32
            case .float64: return 64
            }
        }

        var isFloat: Bool { self == .float32 || self == .float64 }
        var formatTag: UInt16 { isFloat ? 3 : 1 }

        /// The largest decoding error quantisation can cause.
        var tolerance: Float {
            isFloat ? 1e-6 : 1.0 / Float(1 << (bits - 1))
        }

        var description: String { self == .unsigned8 ? "uint8" : "\(isFloat ? "float" : "int")\(bits)" }
    }

    static func le16(_ value: Int) -> [UInt8] {
        [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)]
    }

    static func le32(_ value: UInt32) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    static func le32(_ value: Int) -> [UInt8] { le32(UInt32(truncatingIfNeeded: value)) }

    /// A chunk with an optional lie about its size; odd bodies get the RIFF pad byte.
    static func chunk(_ id: String, _ body: [UInt8], declaredSize: UInt32? = nil) -> [UInt8] {
        var bytes = Array(id.utf8) + le32(declaredSize ?? UInt32(body.count)) + body
        if body.count % 2 == 1 { bytes.append(0) }
        return bytes
    }

    /// The RIFF header followed by `chunks`.
    static func riff(_ chunks: [[UInt8]], type: String = "WAVE") -> [UInt8] {
        let body = chunks.flatMap { $0 }
        return Array("RIFF".utf8) + le32(body.count + 4) + Array(type.utf8) + body
    }

    static func fmt(tag: UInt16, channels: Int, rate: Int, bits: Int) -> [UInt8] {
        let blockAlign = channels * bits / 8
        return chunk(
            "fmt ",
            le16(Int(tag)) + le16(channels) + le32(rate) + le32(rate * blockAlign) + le16(blockAlign)
                + le16(bits))
    }

    /// A WAVE_FORMAT_EXTENSIBLE fmt chunk whose sub-format GUID starts with `subFormat`.
    static func extensibleFmt(
        subFormat: UInt16, channels: Int, rate: Int, bits: Int, guidTail: [UInt8]? = nil
    )
        -> [UInt8]
    {
        let blockAlign = channels * bits / 8
        let tail: [UInt8] =
            guidTail ?? [0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71]
        let body =
            le16(0xFFFE) + le16(channels) + le32(rate) + le32(rate * blockAlign) + le16(blockAlign)
            + le16(bits) + le16(22) + le16(bits) + le32(channels == 2 ? 3 : 4) + le16(Int(subFormat)) + tail
        return chunk("fmt ", body)
    }

    /// Stores each value the way the WAV spec does for `encoding`.
    static func sampleBytes(_ values: [Float], _ encoding: Encoding) -> [UInt8] {
        var bytes: [UInt8] = []
        for value in values {
            switch encoding {
            case .unsigned8:
                bytes.append(UInt8(clamping: Int((value * 128).rounded()) + 128))
            case .int16:
                bytes += le16(Int(Int16(clamping: Int((value * 32_768).rounded()))))
            case .int24:
                let scaled = min(max(Int((value * 8_388_608).rounded()), -8_388_608), 8_388_607)
                bytes += (0..<3).map { UInt8(truncatingIfNeeded: scaled >> (8 * $0)) }
            case .int32:
                let scaled = Int32(clamping: Int((Double(value) * 2_147_483_648).rounded()))
                bytes += le32(UInt32(bitPattern: scaled))
            case .float32:
                bytes += le32(value.bitPattern)
            case .float64:
                let bits = Double(value).bitPattern
                bytes += (0..<8).map { UInt8(truncatingIfNeeded: bits >> (8 * $0)) }
            }
        }
        return bytes
    }

    /// A complete, well-formed WAV of `values`.
    static func wav(
        _ values: [Float], channels: Int, rate: Int, encoding: Encoding, extensible: Bool = false
    ) -> [UInt8] {
        let format =
            extensible
            ? extensibleFmt(
                subFormat: encoding.formatTag, channels: channels, rate: rate, bits: encoding.bits)
            : fmt(tag: encoding.formatTag, channels: channels, rate: rate, bits: encoding.bits)
        return riff([format, chunk("data", sampleBytes(values, encoding))])
    }
}
