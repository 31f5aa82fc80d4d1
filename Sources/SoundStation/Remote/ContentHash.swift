import CSoundStationRT
import Glibc

/// A file's SHA-256: how a sound's file is known over SSH, and its name in the player's cache, so the
/// player never uses a name or path the server chose and a damaged copy is found by hashing it again.
package struct ContentHash: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The 32 bytes of the digest.
    package let bytes: [UInt8]

    /// Wraps a digest.
    /// - Parameter bytes: Exactly 32 bytes; anything else gives `nil`.
    package init?(bytes: [UInt8]) {
        guard bytes.count == 32 else { return nil }
        self.bytes = bytes
    }

    /// Reads 64 lowercase hexadecimal digits (a cache file's name).
    /// - Parameter hex: The digits; anything else (uppercase, other lengths) gives `nil`.
    package init?(hex: some StringProtocol) {
        let utf8 = Array(hex.utf8)
        guard utf8.count == 64 else { return nil }
        var bytes = [UInt8](repeating: 0, count: 32)
        for index in 0..<32 {
            guard let high = Self.nibble(utf8[2 * index]), let low = Self.nibble(utf8[2 * index + 1]) else {
                return nil
            }
            bytes[index] = high << 4 | low
        }
        self.bytes = bytes
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        default: nil
        }
    }

    /// The hash of `data`.
    /// - Parameter data: Any bytes.
    /// - Returns: Their SHA-256.
    package static func of(_ data: [UInt8]) -> ContentHash {
        var state = sshash_state()
        sshash_init(&state)
        data.withUnsafeBytes { sshash_update(&state, $0.baseAddress, $0.count) }
        var digest = [UInt8](repeating: 0, count: 32)
        sshash_final(&state, &digest)
        return ContentHash(bytes: digest)!
    }

    /// The hash of a file's bytes, read in pieces.
    /// - Parameters:
    ///   - path: The file.
    ///   - limit: The most bytes the file may hold; a longer one gives `nil` before it is all read.
    /// - Returns: The hash and the file's size, or `nil` when it cannot be read or is too long.
    package static func ofFile(_ path: String, limit: Int = .max) -> (hash: ContentHash, size: Int)? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var state = sshash_state()
        sshash_init(&state)
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var size = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { break }
            size += count
            if size > limit { return nil }
            buffer.withUnsafeBytes { sshash_update(&state, $0.baseAddress, count) }
        }
        var digest = [UInt8](repeating: 0, count: 32)
        sshash_final(&state, &digest)
        return (ContentHash(bytes: digest)!, size)
    }

    /// 64 lowercase hexadecimal digits.
    package var hex: String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(64)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 15)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The first 16 digits: how an announcement names what a cache holds.
    package var shortHex: String { String(hex.prefix(16)) }

    /// The hexadecimal digits.
    package var description: String { hex }

    /// Orders by the digest's bytes.
    package static func < (lhs: ContentHash, rhs: ContentHash) -> Bool {
        lhs.bytes.lexicographicallyPrecedes(rhs.bytes)
    }
}
