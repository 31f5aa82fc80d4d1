import Testing

@testable import TerminalKit

@Suite("Terminal keys")
struct KeyTests {
    @Test("arrows in both encodings, Enter, Space, Ctrl-C and letters")
    func decoding() {
        let bytes: [UInt8] = [0x1B, 0x5B, 0x41, 0x1B, 0x4F, 0x42, 0x0D, 0x20, 0x03, 0x71, 0x7F]
        #expect(Key.decode(bytes) == [.up, .down, .enter, .space, .interrupt, .character("q"), .backspace])
    }

    @Test("a lone Escape is a key; an unknown sequence is skipped whole")
    func escape() {
        #expect(Key.decode([0x1B]) == [.escape])
        #expect(Key.decode([0x1B, 0x71]) == [.escape, .character("q")])
        // Ctrl+Up (ESC [ 1 ; 5 A) is an arrow with modifiers; F5 (ESC [ 1 5 ~) means nothing here.
        #expect(Key.decode(Array("\u{1B}[1;5A\u{1B}[15~r".utf8)) == [.up, .character("r")])
    }

    @Test("multi-byte characters arrive as one key")
    func utf8() {
        #expect(Key.decode(Array("é녹".utf8)) == [.character("é"), .character("녹")])
    }
}
