/// Walks the pages of an Ogg file to find where its intact part ends, and closes the stream there.
///
/// A recorder that dies leaves pages that were complete when last flushed, then possibly one torn
/// page. Cutting the file after the last intact page that ends a packet, and marking that page as
/// the end of the stream, gives a complete Ogg file without re-encoding a single sample.
enum OggPageScan {
    /// Where the intact part of a file ends.
    struct Result: Equatable {
        /// Bytes of whole, checksum-valid pages ending in a complete packet.
        let intactLength: Int
        /// Where the last such page starts, or nil when there is none.
        let lastPageOffset: Int?
        /// Whether that page already carries the end-of-stream flag.
        let lastPageEndsStream: Bool
    }

    private static let capture: [UInt8] = Array("OggS".utf8)
    private static let headerSize = 27
    private static let endOfStreamFlag: UInt8 = 0x04
    private static let checksumOffset = 22

    /// Finds the intact part of `bytes`.
    static func scan(_ bytes: [UInt8]) -> Result {
        var offset = 0
        var intact = Result(intactLength: 0, lastPageOffset: nil, lastPageEndsStream: false)
        while let end = pageEnd(in: bytes, at: offset) {
            guard checksum(of: bytes[offset..<end]) == storedChecksum(in: bytes, page: offset) else { break }
            let segments = Int(bytes[offset + 26])
            // A page whose last lacing value is 255 leaves a packet unfinished: the stream cannot end there.
            if segments > 0 && bytes[offset + headerSize + segments - 1] != 255 {
                intact = Result(
                    intactLength: end, lastPageOffset: offset,
                    lastPageEndsStream: bytes[offset + 5] & endOfStreamFlag != 0)
            }
            offset = end
        }
        return intact
    }

    /// The end-of-stream flag byte and checksum for the page at `offset` once it is the last page.
    /// - Returns: The new header-type byte and the four checksum bytes to write at
    ///   `offset + 5` and `offset + 22`.
    static func closingPatch(_ bytes: [UInt8], page offset: Int) -> (flags: UInt8, checksum: [UInt8])? {
        guard let end = pageEnd(in: bytes, at: offset) else { return nil }
        var page = Array(bytes[offset..<end])
        page[5] |= endOfStreamFlag
        let sum = checksum(of: page[...])
        return (page[5], (0..<4).map { UInt8(truncatingIfNeeded: sum >> (8 * $0)) })
    }

    /// The end of the page starting at `offset`, if a whole page with a valid header is there.
    private static func pageEnd(in bytes: [UInt8], at offset: Int) -> Int? {
        guard offset + headerSize <= bytes.count,
            Array(bytes[offset..<offset + 4]) == capture, bytes[offset + 4] == 0
        else { return nil }
        let segments = Int(bytes[offset + 26])
        let tableEnd = offset + headerSize + segments
        guard tableEnd <= bytes.count else { return nil }
        let bodyLength = bytes[(offset + headerSize)..<tableEnd].reduce(0) { $0 + Int($1) }
        let end = tableEnd + bodyLength
        return end <= bytes.count ? end : nil
    }

    private static func storedChecksum(in bytes: [UInt8], page offset: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + checksumOffset + $1]) << (8 * $1) }
    }

    /// Ogg's CRC-32 (polynomial 0x04C11DB7, no reflection, zero start) over a page whose own
    /// checksum field counts as zeros.
    static func checksum(of page: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0
        for (index, byte) in zip(0..., page) {
            let value = (checksumOffset..<checksumOffset + 4).contains(index) ? 0 : byte
            crc = (crc << 8) ^ table[Int((crc >> 24) ^ UInt32(value))]
        }
        return crc
    }

    private static let table: [UInt32] = (0..<256).map { index in
        var remainder = UInt32(index) << 24
        for _ in 0..<8 {
            remainder = remainder & 0x8000_0000 != 0 ? (remainder << 1) ^ 0x04C1_1DB7 : remainder << 1
        }
        return remainder
    }
}
