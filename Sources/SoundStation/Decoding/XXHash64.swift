/// XXH64 (Yann Collet's xxHash, 64-bit), the hash of the decoded-PCM cache: fast enough that hashing
/// a file costs a small part of reading it (several GB/s), and 64 bits, so two different files or a
/// damaged entry go unnoticed with odds of one in 2^64. Not cryptographic: the cache guards against
/// accidents (a changed file, a torn or rotted entry), not against someone forging entries in the
/// user's own cache folder.
enum XXHash64 {
    private static let prime1: UInt64 = 11_400_714_785_074_694_791
    private static let prime2: UInt64 = 14_029_467_366_897_019_727
    private static let prime3: UInt64 = 1_609_587_929_392_839_161
    private static let prime4: UInt64 = 9_650_029_242_287_828_579
    private static let prime5: UInt64 = 2_870_177_450_012_600_261

    /// The XXH64 of `bytes` with `seed`.
    static func xxh64(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0) -> UInt64 {
        let count = bytes.count
        var offset = 0
        var hash: UInt64
        if count >= 32, let base = bytes.baseAddress {
            var lane1 = seed &+ prime1 &+ prime2
            var lane2 = seed &+ prime2
            var lane3 = seed
            var lane4 = seed &- prime1
            while offset + 32 <= count {
                lane1 = round(lane1, base.loadUnaligned(fromByteOffset: offset, as: UInt64.self).littleEndian)
                lane2 = round(
                    lane2, base.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self).littleEndian)
                lane3 = round(
                    lane3, base.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self).littleEndian)
                lane4 = round(
                    lane4, base.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self).littleEndian)
                offset += 32
            }
            hash =
                lane1.rotated(1) &+ lane2.rotated(7) &+ lane3.rotated(12) &+ lane4.rotated(18)
            hash = merge(hash, lane1)
            hash = merge(hash, lane2)
            hash = merge(hash, lane3)
            hash = merge(hash, lane4)
        } else {
            hash = seed &+ prime5
        }
        hash &+= UInt64(count)
        guard let base = bytes.baseAddress else { return avalanche(hash) }
        while offset + 8 <= count {
            let word = base.loadUnaligned(fromByteOffset: offset, as: UInt64.self).littleEndian
            hash ^= round(0, word)
            hash = hash.rotated(27) &* prime1 &+ prime4
            offset += 8
        }
        if offset + 4 <= count {
            let word = UInt64(base.loadUnaligned(fromByteOffset: offset, as: UInt32.self).littleEndian)
            hash ^= word &* prime1
            hash = hash.rotated(23) &* prime2 &+ prime3
            offset += 4
        }
        while offset < count {
            hash ^= UInt64(base.load(fromByteOffset: offset, as: UInt8.self)) &* prime5
            hash = hash.rotated(11) &* prime1
            offset += 1
        }
        return avalanche(hash)
    }

    /// The XXH64 of a string's UTF-8 bytes.
    static func xxh64(_ string: String, seed: UInt64 = 0) -> UInt64 {
        Array(string.utf8).withUnsafeBytes { xxh64($0, seed: seed) }
    }

    private static func round(_ accumulator: UInt64, _ input: UInt64) -> UInt64 {
        (accumulator &+ input &* prime2).rotated(31) &* prime1
    }

    private static func merge(_ hash: UInt64, _ lane: UInt64) -> UInt64 {
        (hash ^ round(0, lane)) &* prime1 &+ prime4
    }

    private static func avalanche(_ value: UInt64) -> UInt64 {
        var hash = value
        hash ^= hash >> 33
        hash &*= prime2
        hash ^= hash >> 29
        hash &*= prime3
        hash ^= hash >> 32
        return hash
    }
}

extension UInt64 {
    fileprivate func rotated(_ bits: UInt64) -> UInt64 { (self << bits) | (self >> (64 - bits)) }
}
