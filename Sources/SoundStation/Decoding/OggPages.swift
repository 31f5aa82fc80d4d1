/// Walks the pages of an Ogg file by their headers alone, to tell a stream that ends properly (its
/// last page complete and marked end-of-stream) from one cut short.
enum OggPages {
    /// Where the last complete page ends, and what is wrong with the end of the stream, if anything.
    /// - Parameter source: The whole file.
    /// - Returns: The byte count up to the end of the last whole page, and a shortfall message when
    ///   the file does not end with a complete end-of-stream page.
    static func completeExtent(of source: some ByteSource) throws(AudioDecodingError) -> (
        bytes: Int, shortfall: String?
    ) {
        var offset = 0
        var lastFlags: UInt8 = 0
        while offset < source.byteCount {
            let header = try source.bytes(at: offset, count: 27)
            guard header.count == 27, header.starts(with: Array("OggS".utf8)) else { break }
            let segments = try source.bytes(at: offset + 27, count: Int(header[26]))
            guard segments.count == Int(header[26]) else { break }
            let end = offset + 27 + segments.count + segments.reduce(0) { $0 + Int($1) }
            guard end <= source.byteCount else { break }
            lastFlags = header[5]
            offset = end
        }
        if offset < source.byteCount {
            return (
                offset,
                "the Ogg stream breaks off after \(offset) of \(source.byteCount) bytes, in the middle of a page"
            )
        }
        if lastFlags & 0x04 == 0 {
            return (
                offset, "the Ogg stream has no end-of-stream page, as when a download or recording is cut off"
            )
        }
        return (offset, nil)
    }
}

/// The first `byteCount` bytes of another source, so a decoder sees a file cut at a clean boundary.
struct PrefixBytes: ByteSource {
    let source: any ByteSource
    let byteCount: Int

    func bytes(at offset: Int, count: Int) throws(AudioDecodingError) -> [UInt8] {
        let end = min(offset + max(count, 0), byteCount)
        guard offset < end else { return [] }
        return try source.bytes(at: offset, count: end - offset)
    }
}

/// The frame count an AIFF file's `COMM` chunk declares, which libsndfile quietly lowers to what
/// the file holds; compared with what decodes, it tells a file cut short.
enum AIFFHeader {
    /// The declared frames, or nil when there is no readable `COMM` chunk.
    static func declaredFrames(in source: some ByteSource) throws(AudioDecodingError) -> Int? {
        var offset = 12
        while offset + 8 <= source.byteCount {
            let header = try source.bytes(at: offset, count: 8)
            guard header.count == 8 else { return nil }
            let size = Int(header.uint32(at: 4, bigEndian: true))
            if header.starts(with: Array("COMM".utf8)) {
                let body = try source.bytes(at: offset + 8, count: 6)
                return body.count == 6 ? Int(body.uint32(at: 2, bigEndian: true)) : nil
            }
            offset += 8 + size + (size & 1)
        }
        return nil
    }
}
