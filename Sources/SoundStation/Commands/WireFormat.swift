/// Why bytes could not be read as a command or an event.
package enum WireError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bytes end before the value does.
    case truncated(needed: Int, at: Int)
    /// The message was written by a newer (or unknown) encoding.
    case unsupportedVersion(UInt8)
    /// The kind byte names no command or event this version knows.
    case unknownKind(UInt8)
    /// A field holds a value no encoder writes (a bus index, an easing, a string that is not UTF-8).
    case invalidValue(field: String, value: String)
    /// Bytes are left after the value.
    case trailingBytes(Int)

    /// What went wrong and what to do, in one line.
    package var description: String {
        switch self {
        case .truncated(let needed, let at):
            "the message ends at byte \(at), \(needed) bytes before its value does: drop it"
        case .unsupportedVersion(let version):
            "encoding version \(version) is not \(WireFormat.version): update both sides to the same release"
        case .unknownKind(let kind): "kind \(kind) names no command or event of version \(WireFormat.version)"
        case .invalidValue(let field, let value): "\(field) \(value) is not a value any encoder writes"
        case .trailingBytes(let count): "\(count) bytes follow the value: drop the message"
        }
    }
}

/// The compact binary encoding commands and events share: a version byte, a kind byte, then the
/// fields little-endian (floats as their IEEE bits, optionals behind a presence byte, strings as a
/// 16-bit length and UTF-8).
enum WireFormat {
    /// Written first in every message; a reader refuses any other.
    static let version: UInt8 = 1
    /// The longest string a message may carry.
    static let maxString = 4096
}

/// Appends values in ``WireFormat``.
struct WireWriter {
    private(set) var bytes: [UInt8] = []

    init(kind: UInt8) {
        bytes.reserveCapacity(48)
        bytes.append(WireFormat.version)
        bytes.append(kind)
    }

    mutating func u8(_ value: UInt8) { bytes.append(value) }
    mutating func bool(_ value: Bool) { bytes.append(value ? 1 : 0) }
    mutating func u64(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
    mutating func i64(_ value: Int64) { u64(UInt64(bitPattern: value)) }
    mutating func i32(_ value: Int32) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
    mutating func f32(_ value: Float) { withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes += $0 } }
    mutating func f64(_ value: Double) { u64(value.bitPattern) }
    /// A duration as whole nanoseconds (finer than any frame).
    mutating func duration(_ value: Duration) {
        let (seconds, attoseconds) = value.components
        i64(seconds &* 1_000_000_000 &+ attoseconds / 1_000_000_000)
    }
    mutating func string(_ value: String) {
        let utf8 = Array(value.utf8.prefix(WireFormat.maxString))
        withUnsafeBytes(of: UInt16(utf8.count).littleEndian) { bytes += $0 }
        bytes += utf8
    }
    /// Bytes behind a 32-bit length (an embedded message, a piece of a file).
    mutating func blob(_ value: [UInt8]) {
        withUnsafeBytes(of: UInt32(value.count).littleEndian) { bytes += $0 }
        bytes += value
    }
    /// Bytes of a length both sides know (a hash).
    mutating func fixed(_ value: [UInt8]) { bytes += value }
    mutating func optional<T>(_ value: T?, _ write: (inout WireWriter, T) -> Void) {
        bool(value != nil)
        if let value { write(&self, value) }
    }
}

/// Reads values in ``WireFormat``, refusing anything short or out of range.
struct WireReader {
    private let bytes: [UInt8]
    private var offset = 0
    /// The message's kind byte.
    let kind: UInt8

    init(_ bytes: [UInt8]) throws(WireError) {
        self.bytes = bytes
        guard bytes.count >= 2 else { throw .truncated(needed: 2 - bytes.count, at: bytes.count) }
        guard bytes[0] == WireFormat.version else { throw .unsupportedVersion(bytes[0]) }
        kind = bytes[1]
        offset = 2
    }

    private mutating func take(_ count: Int) throws(WireError) -> ArraySlice<UInt8> {
        guard bytes.count - offset >= count else {
            throw .truncated(needed: count - (bytes.count - offset), at: bytes.count)
        }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    private mutating func integer<T: FixedWidthInteger>(_: T.Type) throws(WireError) -> T {
        let slice = try take(MemoryLayout<T>.size)
        var value: T = 0
        for (shift, byte) in slice.enumerated() { value |= T(truncatingIfNeeded: byte) << (8 * shift) }
        return value
    }

    mutating func u8() throws(WireError) -> UInt8 { try take(1).first! }
    mutating func bool() throws(WireError) -> Bool {
        let byte = try u8()
        guard byte <= 1 else { throw .invalidValue(field: "flag", value: "\(byte)") }
        return byte == 1
    }
    mutating func u64() throws(WireError) -> UInt64 { try integer(UInt64.self) }
    mutating func i64() throws(WireError) -> Int64 { try integer(Int64.self) }
    mutating func i32() throws(WireError) -> Int32 { try integer(Int32.self) }
    mutating func f32() throws(WireError) -> Float { Float(bitPattern: try integer(UInt32.self)) }
    mutating func f64() throws(WireError) -> Double { Double(bitPattern: try integer(UInt64.self)) }
    mutating func duration() throws(WireError) -> Duration { .nanoseconds(try i64()) }
    mutating func string() throws(WireError) -> String {
        let count = Int(try integer(UInt16.self))
        guard count <= WireFormat.maxString else {
            throw .invalidValue(field: "string length", value: "\(count)")
        }
        let slice = try take(count)
        guard let string = String(validating: slice, as: UTF8.self) else {
            throw .invalidValue(field: "string", value: "\(count) bytes that are not UTF-8")
        }
        return string
    }
    /// Bytes behind a 32-bit length, refused above `max`.
    mutating func blob(max: Int) throws(WireError) -> [UInt8] {
        let count = Int(try integer(UInt32.self))
        guard count <= max else { throw .invalidValue(field: "length", value: "\(count)") }
        return Array(try take(count))
    }
    /// `count` bytes.
    mutating func fixed(_ count: Int) throws(WireError) -> [UInt8] { Array(try take(count)) }
    mutating func optional<T>(_ read: (inout WireReader) throws(WireError) -> T) throws(WireError) -> T? {
        try bool() ? try read(&self) : nil
    }

    /// Whether every byte was read: a field added at the end of a message in a later release is
    /// read only when it is there.
    var isAtEnd: Bool { offset == bytes.count }

    /// Throws unless every byte was read.
    func finish() throws(WireError) {
        if offset != bytes.count { throw .trailingBytes(bytes.count - offset) }
    }
}
