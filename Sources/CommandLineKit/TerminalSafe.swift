/// Text that came from elsewhere (a server, a file, a catalogue) made safe to print on a terminal.
///
/// A terminal acts on what it is sent: ESC starts a sequence (CSI `ESC [` moves the cursor or clears
/// the screen, OSC `ESC ]` sets the window's title or the clipboard), so does each C1 control
/// (U+0080...U+009F, also as the raw bytes 0x80...0x9F that some terminals read as C1), and the
/// other C0 controls and DEL move the cursor or ring the bell. A name a server chose that reaches
/// stderr raw can therefore rewrite the player's screen. The CLIs pass every string that came from
/// the other side through ``printable(_:)-(String)`` before printing it.
///
/// What is escaped, so no control byte reaches the output and the text still says what it held:
/// - C0 controls (0x00...0x1F, ESC, tab and newline included) and DEL (0x7F): `\x1b`;
/// - C1 controls as characters (U+0080...U+009F) and the characters that reorder or break a line
///   (U+2028, U+2029, the bidirectional embeddings, overrides and isolates U+200E, U+200F,
///   U+202A...U+202E, U+2066...U+2069): `\u{9b}`;
/// - bytes that are not UTF-8 (a lone 0x9B, a cut-off sequence, an overlong form): `\x9b`;
/// - the backslash itself: `\\`, so an escape in the output always stands for what was there.
///
/// Everything else (printable ASCII, letters of every script, emoji) is kept as it is.
public enum TerminalSafe {
    /// `bytes`, taken as UTF-8, as text safe to print.
    /// - Parameter bytes: Any bytes (a name as received, a file name).
    /// - Returns: Printable text.
    public static func printable(_ bytes: some Collection<UInt8>) -> String {
        let bytes = Array(bytes)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x80 {
                switch byte {
                case 0x5C: out += [0x5C, 0x5C]
                case 0x20..<0x7F: out.append(byte)
                default: escapeByte(byte, into: &out)
                }
                index += 1
                continue
            }
            guard let (scalar, length) = scalar(in: bytes, at: index) else {
                escapeByte(byte, into: &out)
                index += 1
                continue
            }
            if isUnsafe(scalar) {
                out += Array("\\u{\(String(scalar, radix: 16))}".utf8)
            } else {
                out += bytes[index..<index + length]
            }
            index += length
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `text` as text safe to print.
    /// - Parameter text: Any string (a Swift string is valid Unicode, so only controls and the
    ///   characters above are escaped).
    /// - Returns: Printable text.
    public static func printable(_ text: String) -> String {
        printable(text.utf8)
    }

    /// Whether `text` prints as it is (``printable(_:)-(String)`` would not change it).
    /// - Parameter text: Any string.
    /// - Returns: True when it holds nothing to escape.
    public static func isPrintable(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { scalar in
            (0x20..<0x7F).contains(scalar.value)
                ? scalar != "\\" : scalar.value >= 0x80 && !isUnsafe(scalar.value)
        }
    }

    /// Characters a terminal acts on or that change how the line around them reads.
    private static func isUnsafe(_ scalar: UInt32) -> Bool {
        switch scalar {
        case 0x80...0x9F, 0x200E, 0x200F, 0x2028...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    private static func escapeByte(_ byte: UInt8, into out: inout [UInt8]) {
        let digits = Array("0123456789abcdef".utf8)
        out += [0x5C, 0x78, digits[Int(byte >> 4)], digits[Int(byte & 0xF)]]
    }

    /// The scalar of the well-formed UTF-8 sequence (RFC 3629: no overlong form, no surrogate,
    /// nothing above U+10FFFF) that starts at `index`, and its length; `nil` when there is none.
    private static func scalar(in bytes: [UInt8], at index: Int) -> (UInt32, Int)? {
        let lead = bytes[index]
        let length: Int
        let lowest: UInt32
        var value: UInt32
        switch lead {
        case 0xC2...0xDF: (length, lowest, value) = (2, 0x80, UInt32(lead & 0x1F))
        case 0xE0...0xEF: (length, lowest, value) = (3, 0x800, UInt32(lead & 0x0F))
        case 0xF0...0xF4: (length, lowest, value) = (4, 0x10000, UInt32(lead & 0x07))
        default: return nil
        }
        guard index + length <= bytes.count else { return nil }
        for offset in 1..<length {
            let next = bytes[index + offset]
            guard next & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(next & 0x3F)
        }
        guard value >= lowest, value <= 0x10FFFF, !(0xD800...0xDFFF).contains(value) else { return nil }
        return (value, length)
    }
}

extension String {
    /// The string as text safe to print on a terminal (``TerminalSafe/printable(_:)-(String)``): controls,
    /// escape sequences and characters that reorder a line are written as `\x1b`-style escapes.
    public var printable: String { TerminalSafe.printable(self) }
}
