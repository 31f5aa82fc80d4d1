/// The manifest edits a remote session makes, on the catalogue's own JSON reader's values (the
/// library imports no Foundation).
package enum RemoteJSON {
    package typealias Value = ManifestJSON.Value

    /// The manifest's `sounds` array, or `nil` when the text is not a manifest.
    package static func sounds(_ bytes: [UInt8]) -> [Value]? {
        guard case .object(let root)? = try? ManifestJSON.parse(bytes),
            case .array(let sounds)? = root["sounds"]
        else { return nil }
        return sounds
    }

    /// A member of an object value.
    static func member(_ value: Value, _ key: String) -> Value? {
        if case .object(let object) = value { return object[key] }
        return nil
    }

    /// A string member of an object value.
    package static func string(_ value: Value, _ key: String) -> String? {
        if case .string(let text)? = member(value, key) { return text }
        return nil
    }

    /// An entry's file paths: its own, its stems' and its SoundFont's (a MIDI song's instruments).
    package static func paths(_ sound: Value) -> [String?] {
        // A synthesised sound has no file: the player renders it from its parameters.
        if member(sound, "synth") != nil { return [] }
        var paths = [string(sound, "path")]
        if member(sound, "soundfont") != nil { paths.append(string(sound, "soundfont")) }
        if case .array(let stems)? = member(sound, "stems") {
            for stem in stems { paths.append(string(stem, "path")) }
        }
        return paths
    }

    /// `value` with every `path` (its own and its stems') and its `soundfont` passed through `rename`.
    static func renamingPaths(_ value: Value, _ rename: (String) -> String?) -> Value {
        guard case .object(var object) = value else { return value }
        for index in object.members.indices {
            switch (object.members[index].key, object.members[index].value) {
            case ("path", .string(let path)), ("soundfont", .string(let path)):
                object.members[index].value = rename(path).map(Value.string) ?? .null
            case ("stems", .array(let stems)):
                object.members[index].value = .array(stems.map { renamingPaths($0, rename) })
            default: break
            }
        }
        return .object(object)
    }

    /// A manifest holding `sounds`.
    package static func manifest(_ sounds: [Value]) -> [UInt8] {
        Array(text(.object(ManifestJSON.Object(members: [("sounds", .array(sounds))]))).utf8)
    }

    /// JSON text for a value.
    static func text(_ value: Value) -> String {
        switch value {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .integer(let number): return String(number)
        case .number(let number): return number.isFinite ? String(number) : "null"
        case .string(let string): return JSONString.literal(string)
        case .array(let items): return "[" + items.map(text).joined(separator: ",") + "]"
        case .object(let object):
            return "{"
                + object.members.map { JSONString.literal($0.key) + ":" + text($0.value) }.joined(
                    separator: ",")
                + "}"
        }
    }

}

/// Base64 (RFC 4648, with padding) for frames, without Foundation.
enum Base64 {
    private static let alphabet = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
        return table
    }()

    /// The base64 text of `bytes`.
    static func encode(_ bytes: [UInt8]) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index + 3 <= bytes.count {
            let n = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            out += [
                alphabet[Int(n >> 18 & 63)], alphabet[Int(n >> 12 & 63)], alphabet[Int(n >> 6 & 63)],
                alphabet[Int(n & 63)],
            ]
            index += 3
        }
        let rest = bytes.count - index
        if rest == 1 {
            let n = UInt32(bytes[index]) << 16
            out += [
                alphabet[Int(n >> 18 & 63)], alphabet[Int(n >> 12 & 63)], UInt8(ascii: "="),
                UInt8(ascii: "="),
            ]
        } else if rest == 2 {
            let n = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8
            out += [
                alphabet[Int(n >> 18 & 63)], alphabet[Int(n >> 12 & 63)], alphabet[Int(n >> 6 & 63)],
                UInt8(ascii: "="),
            ]
        }
        return out
    }

    /// The bytes of padded base64 text, or `nil` for text that is not.
    static func decode(_ text: [UInt8]) -> [UInt8]? {
        guard text.count % 4 == 0 else { return nil }
        var out = [UInt8]()
        out.reserveCapacity(text.count / 4 * 3)
        var index = 0
        while index < text.count {
            let last = index + 4 == text.count
            var n: UInt32 = 0
            var padding = 0
            for offset in 0..<4 {
                let byte = text[index + offset]
                if byte == UInt8(ascii: "=") {
                    // Padding only at the end, and only in the last two places.
                    guard last, offset >= 2 else { return nil }
                    padding += 1
                    n <<= 6
                    continue
                }
                guard padding == 0 else { return nil }
                let value = values[Int(byte)]
                guard value != 0xFF else { return nil }
                n = n << 6 | UInt32(value)
            }
            out.append(UInt8(n >> 16 & 0xFF))
            if padding < 2 { out.append(UInt8(n >> 8 & 0xFF)) }
            if padding < 1 { out.append(UInt8(n & 0xFF)) }
            index += 4
        }
        return out
    }
}
