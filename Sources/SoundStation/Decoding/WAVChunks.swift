/// Where a WAV's sample format and sample data are, found by walking its RIFF chunks.
struct WAVLayout {
    let format: WAVFormat
    /// Byte offset of the `data` chunk's body.
    let dataOffset: Int
    /// The `data` chunk's size; the walk has checked that this many bytes are present.
    let dataByteCount: Int

    /// Whole frames in the data; a trailing partial frame is ignored rather than rejected.
    var frameCount: Int { dataByteCount / format.bytesPerFrame }

    /// The header facts callers want without decoding.
    var info: AudioFileInfo {
        AudioFileInfo(
            format: .wav, sampleRate: format.sampleRate, channels: format.channels, frameCount: frameCount)
    }

    /// Walks the chunks of `source`, reading only chunk headers and the `fmt ` body.
    ///
    /// Chunks may come in any order and unknown ones are skipped. Declared sizes are only ever
    /// compared against the real byte count, never used to allocate, so a damaged header cannot
    /// make the decoder allocate gigabytes.
    init(of source: some ByteSource, name: String) throws(AudioDecodingError) {
        let total = source.byteCount
        let header = try source.bytes(at: 0, count: 12)
        try Self.checkMagic(header, total: total, name: name)

        var format: WAVFormat?
        var data: (offset: Int, declared: Int)?
        var offset = 12
        while offset + 8 <= total, format == nil || data == nil {
            let chunkHeader = try source.bytes(at: offset, count: 8)
            let id = Self.fourCC(chunkHeader[0..<4])
            let size = Int(chunkHeader.littleEndianUInt32(at: 4))
            let body = offset + 8
            if id == "fmt " && format == nil {
                guard body + size <= total else {
                    throw .truncated(
                        path: name,
                        reason: "the 'fmt ' chunk declares \(size) bytes but only \(total - body) remain")
                }
                format = try WAVFormat(chunk: try source.bytes(at: body, count: min(size, 40)), name: name)
            } else if id == "data" && data == nil {
                data = (body, size)
            }
            // RIFF pads every chunk to an even length; the pad byte is not counted in its size.
            offset = body + size + (size & 1)
        }

        guard let format else {
            throw .corrupt(path: name, reason: "there is no 'fmt ' chunk, so the sample format is unknown")
        }
        guard let data else {
            throw .corrupt(path: name, reason: "there is no 'data' chunk holding samples")
        }
        let present = max(0, total - data.offset)
        guard present >= data.declared else {
            throw .truncated(
                path: name,
                reason: "the 'data' chunk declares \(data.declared) bytes but only \(present) are present")
        }
        self.format = format
        self.dataOffset = data.offset
        self.dataByteCount = data.declared
    }

    private static func checkMagic(_ header: [UInt8], total: Int, name: String) throws(AudioDecodingError) {
        guard total > 0 else {
            throw .unreadable(path: name, reason: "the file is empty (0 bytes)")
        }
        let riff = fourCC(header.prefix(4))
        let wave = fourCC(header.dropFirst(8).prefix(4))
        switch riff {
        case "RIFF" where header.count < 12:
            throw .truncated(path: name, reason: "only \(total) bytes, shorter than a RIFF header")
        case "RIFF" where wave == "WAVE":
            return
        case "RIFF":
            throw .unsupportedFormat(path: name, reason: "a RIFF file of type '\(wave)', not WAVE")
        case "RIFX":
            throw .unsupportedFormat(path: name, reason: "big-endian WAV (RIFX)")
        case "RF64":
            throw .unsupportedFormat(path: name, reason: "RF64 (WAV over 4 GB)")
        default:
            throw .unsupportedFormat(path: name, reason: "it does not start with 'RIFF'...'WAVE'")
        }
    }

    /// A chunk or file type as text; bytes that are not printable ASCII become '?' so that garbage
    /// cannot put control characters into an error message.
    private static func fourCC(_ bytes: ArraySlice<UInt8>) -> String {
        String(bytes.map { (0x20...0x7E).contains($0) ? Character(UnicodeScalar($0)) : "?" })
    }
}
