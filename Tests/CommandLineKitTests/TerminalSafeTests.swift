import Testing

@testable import CommandLineKit

@Suite("TerminalSafe")
struct TerminalSafeTests {
    /// Whether `text` holds a byte a terminal acts on: a C0 control, DEL, a C1 control byte (as a
    /// raw byte or inside its UTF-8 form), or anything that is not UTF-8.
    static func holdsControl(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        if String(validating: bytes, as: UTF8.self) == nil { return true }
        if bytes.contains(where: { $0 < 0x20 || $0 == 0x7F }) { return true }
        return text.unicodeScalars.contains { (0x80...0x9F).contains($0.value) }
    }

    @Test("ESC, CSI, OSC, C0 controls and DEL come out as \\x escapes")
    func c0() {
        #expect("a\u{1B}[2Jb".printable == #"a\x1b[2Jb"#)
        #expect("\u{1B}]0;PWNED-TITLE\u{07}".printable == #"\x1b]0;PWNED-TITLE\x07"#)
        #expect("line\none\ttab\r".printable == #"line\x0aone\x09tab\x0d"#)
        #expect("nul\u{0}del\u{7F}".printable == #"nul\x00del\x7f"#)
        #expect("\u{1B}P+q\u{1B}\\".printable == #"\x1bP+q\x1b\\"#)
    }

    @Test("C1 controls as characters come out as \\u{} escapes, as raw bytes as \\x escapes")
    func c1() {
        for value in UInt32(0x80)...0x9F {
            let text = "<" + String(Unicode.Scalar(value)!) + ">"
            #expect(text.printable == "<\\u{\(String(value, radix: 16))}>")
            // The raw byte (0x9B is a one-byte CSI to a terminal that reads C1) is not UTF-8.
            let raw = TerminalSafe.printable([0x3C, UInt8(value), 0x3E])
            #expect(raw == "<\\x\(String(value, radix: 16))>")
        }
        #expect(TerminalSafe.printable([0x9B, 0x32, 0x4A]) == #"\x9b2J"#)
    }

    @Test("bytes that are not UTF-8 come out as \\x escapes, one per byte, and the rest is kept")
    func invalidUTF8() {
        // A cut-off sequence, an overlong slash, a surrogate, a lead byte above U+10FFFF, a stray
        // continuation byte, 0xFF.
        #expect(TerminalSafe.printable([0x61, 0xE2, 0x82]) == #"a\xe2\x82"#)
        #expect(TerminalSafe.printable([0xC0, 0xAF]) == #"\xc0\xaf"#)
        #expect(TerminalSafe.printable([0xED, 0xA0, 0x80]) == #"\xed\xa0\x80"#)
        #expect(TerminalSafe.printable([0xF5, 0x80, 0x80, 0x80]) == #"\xf5\x80\x80\x80"#)
        #expect(TerminalSafe.printable([0x80, 0x41, 0xFF]) == #"\x80A\xff"#)
        // An overlong form of ESC (0xC0 0x9B) hides no ESC.
        #expect(TerminalSafe.printable([0xC0, 0x9B]) == #"\xc0\x9b"#)
    }

    @Test("letters of every script, emoji and plain ASCII are kept; a backslash is doubled")
    func keeps() {
        let text = "boom-é-ß-ж-日本-🎵 (x=1)"
        #expect(text.printable == text)
        #expect(TerminalSafe.isPrintable(text))
        #expect(#"a\b"#.printable == #"a\\b"#)
        #expect(!TerminalSafe.isPrintable("a\u{1B}"))
        #expect(!TerminalSafe.isPrintable("a\u{9B}"))
        #expect(!TerminalSafe.isPrintable(#"a\b"#))
    }

    @Test("characters that reorder or break a line are escaped")
    func bidi() {
        #expect("evil\u{202E}txt.exe".printable == #"evil\u{202e}txt.exe"#)
        #expect("a\u{2028}b\u{2066}c".printable == #"a\u{2028}b\u{2066}c"#)
    }

    @Test("no input of random bytes leaves a control byte or invalid UTF-8 in the output")
    func randomBytes() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let bytes = (0..<Int.random(in: 0...40, using: &generator)).map { _ in
                UInt8.random(in: 0...255, using: &generator)
            }
            let text = TerminalSafe.printable(bytes)
            #expect(!Self.holdsControl(text), "\(bytes)")
        }
    }
}
