/// Where a WAV's sample format and sample data are, found by walking its chunks.
struct WAVLayout {
    /// The flavour of the outer chunk.
    enum Container: String {
        /// Little-endian RIFF, the usual WAV.
        case riff = "RIFF"
        /// Big-endian RIFF.
        case rifx = "RIFX"
        /// RF64 (EBU Tech 3306) or BW64 (ITU-R BS.2088): 64-bit sizes kept in a `ds64` chunk.
        case rf64 = "RF64"
    }

    let container: Container
    let format: WAVFormat
    /// Byte offset of the `data` chunk's body.
    let dataOffset: Int
    /// The bytes of the `data` chunk that are in the file: its declared size, or less when the file
    /// is cut short.
    let dataByteCount: Int
    /// The `data` chunk's size as its header (or the `ds64` chunk) declares it.
    let declaredDataByteCount: Int

    /// True when the Swift decoder reads the samples: PCM or float in RIFF, RIFX or RF64 (libsndfile
    /// 1.2 refuses 24-bit RIFX). Compressed encodings go to libsndfile.
    var isNative: Bool {
        if case .library = format.encoding { return false }
        return true
    }

    /// Whole frames in the data; a trailing partial frame is ignored rather than rejected.
    var frameCount: Int { dataByteCount / format.bytesPerFrame }

    /// What is missing when the file ends before its `data` chunk does, else nil.
    var shortfall: String? {
        guard dataByteCount < declaredDataByteCount else { return nil }
        return
            "the 'data' chunk declares \(declaredDataByteCount) bytes but only \(dataByteCount) are present"
    }

    /// The header facts callers want without decoding (for a native layout).
    var info: AudioFileInfo {
        AudioFileInfo(
            format: .wav, sampleRate: format.sampleRate, channels: min(format.channels, 2),
            frameCount: frameCount, encoding: encodingName, fileChannels: format.channels)
    }

    /// A libsndfile decoder for a WAV the Swift decoder leaves to it; its errors name the encoding
    /// and format tag found here, which say more than libsndfile's "malformed 'fmt ' chunk".
    func libraryDecoder(
        source: some ByteSource, name: String, options: DecodingOptions
    ) throws(AudioDecodingError) -> SndFileDecoder {
        do {
            return try SndFileDecoder(source: source, name: name, options: options, knownShortfall: shortfall)
        } catch {
            let what = "\(encodingName) (format tag \(format.tag))"
            switch error {
            case .corrupt(_, let reason): throw .corrupt(path: name, reason: "\(what): \(reason)")
            case .unsupportedFormat(_, let reason):
                throw .unsupportedFormat(path: name, reason: "\(what): \(reason)")
            case .truncated(_, let reason): throw .truncated(path: name, reason: "\(what): \(reason)")
            case .unreadable, .tooLarge: throw error
            }
        }
    }

    /// The encoding as `soundstation catalogue` shows it, with the container when it is not RIFF.
    var encodingName: String {
        container == .riff ? format.encoding.name : "\(container.rawValue) \(format.encoding.name)"
    }

    /// Walks the chunks of `source`, reading only chunk headers and the `fmt ` and `ds64` bodies.
    ///
    /// Chunks may come in any order and unknown ones are skipped. Declared sizes are only ever
    /// compared against the real byte count, never used to allocate, so a damaged header cannot
    /// make the decoder allocate gigabytes.
    init(of source: some ByteSource, name: String) throws(AudioDecodingError) {
        let total = source.byteCount
        let header = try source.bytes(at: 0, count: 12)
        let container = try Self.checkMagic(header, total: total, name: name)
        let bigEndian = container == .rifx

        var format: WAVFormat?
        var data: (offset: Int, declared: Int)?
        var ds64DataSize: Int?
        var offset = 12
        while offset + 8 <= total, format == nil || data == nil {
            let chunkHeader = try source.bytes(at: offset, count: 8)
            let id = Self.fourCC(chunkHeader[0..<4])
            let size = Int(chunkHeader.uint32(at: 4, bigEndian: bigEndian))
            let body = offset + 8
            if id == "fmt " && format == nil {
                guard body + size <= total else {
                    throw .truncated(
                        path: name,
                        reason: "the 'fmt ' chunk declares \(size) bytes but only \(total - body) remain")
                }
                format = try WAVFormat(
                    chunk: try source.bytes(at: body, count: min(size, 40)), bigEndian: bigEndian, name: name)
            } else if id == "ds64" && container == .rf64 && size >= 16 {
                let ds64 = try source.bytes(at: body, count: 16)
                if ds64.count == 16 {
                    // Sizes beyond Int's range are lies; clamp so comparisons stay meaningful.
                    ds64DataSize = Int(clamping: ds64.littleEndianUInt64(at: 8))
                }
            } else if id == "data" && data == nil {
                let declared = size == 0xFFFF_FFFF && container == .rf64 ? (ds64DataSize ?? size) : size
                data = (body, declared)
                // `fmt ` after `data` is rare but legal, so the walk skips the samples by their
                // declared size when it fits; a size past the end (or past Int, from a lying
                // ds64) ends the walk.
                guard declared < total - body else { break }
                offset = body + declared + (declared & 1)
                continue
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
        self.container = container
        self.format = format
        self.dataOffset = data.offset
        self.declaredDataByteCount = data.declared
        self.dataByteCount = min(present, data.declared)
        if dataByteCount == 0 && declaredDataByteCount > 0 {
            throw .truncated(path: name, reason: "the file ends where its samples should begin")
        }
    }

    private static func checkMagic(_ header: [UInt8], total: Int, name: String) throws(AudioDecodingError)
        -> Container
    {
        guard total > 0 else {
            throw .unreadable(path: name, reason: "the file is empty (0 bytes)")
        }
        let riff = fourCC(header.prefix(4))
        let wave = fourCC(header.dropFirst(8).prefix(4))
        guard ["RIFF", "RIFX", "RF64", "BW64"].contains(riff) else {
            throw .unsupportedFormat(path: name, reason: "it does not start with 'RIFF'...'WAVE'")
        }
        guard header.count >= 12 else {
            throw .truncated(path: name, reason: "only \(total) bytes, shorter than a \(riff) header")
        }
        guard wave == "WAVE" else {
            throw .unsupportedFormat(path: name, reason: "a \(riff) file of type '\(wave)', not WAVE")
        }
        switch riff {
        case "RIFX": return .rifx
        case "RF64", "BW64": return .rf64
        default: return .riff
        }
    }

    /// A chunk or file type as text; bytes that are not printable ASCII become '?' so that garbage
    /// cannot put control characters into an error message.
    private static func fourCC(_ bytes: ArraySlice<UInt8>) -> String {
        String(bytes.map { (0x20...0x7E).contains($0) ? Character(UnicodeScalar($0)) : "?" })
    }
}
