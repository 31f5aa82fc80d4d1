/// A key press read from a terminal in raw mode.
public enum Key: Sendable, Equatable {
    /// Arrow keys.
    case up, down, left, right
    /// Return or Enter.
    case enter
    /// The space bar.
    case space
    /// Escape on its own (not the start of an arrow key's sequence).
    case escape
    /// Ctrl-C, which raw mode delivers as a byte instead of a signal.
    case interrupt
    /// Backspace or Delete.
    case backspace
    /// Any other printable character.
    case character(Character)

    /// Splits the bytes one read returned into keys: arrows in both cursor modes (`ESC [ A`,
    /// `ESC O A`, with or without modifiers), Enter, Space, Ctrl-C, Backspace, a lone Escape and
    /// UTF-8 characters. Unknown escape sequences (function keys) are skipped whole.
    /// - Parameter bytes: What the terminal sent.
    /// - Returns: The keys in the order they were typed.
    public static func decode(_ bytes: [UInt8]) -> [Key] {
        var keys: [Key] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case 0x1B:
                guard index < bytes.count, bytes[index] == 0x5B || bytes[index] == 0x4F else {
                    keys.append(.escape)
                    continue
                }
                // CSI or SS3: parameters, then one final byte in 0x40...0x7E names the key.
                index += 1
                while index < bytes.count, !(0x40...0x7E).contains(bytes[index]) { index += 1 }
                guard index < bytes.count else { break }
                let final = bytes[index]
                index += 1
                switch final {
                case 0x41: keys.append(.up)
                case 0x42: keys.append(.down)
                case 0x43: keys.append(.right)
                case 0x44: keys.append(.left)
                default: break
                }
            case 0x0D, 0x0A: keys.append(.enter)
            case 0x20: keys.append(.space)
            case 0x03: keys.append(.interrupt)
            case 0x7F, 0x08: keys.append(.backspace)
            case 0x21...0x7E: keys.append(.character(Character(Unicode.Scalar(byte))))
            case 0xC0...0xFF:
                // A multi-byte UTF-8 character: its continuation bytes are 0x80...0xBF.
                var end = index
                while end < bytes.count, (0x80...0xBF).contains(bytes[end]) { end += 1 }
                if let character = String(decoding: bytes[(index - 1)..<end], as: UTF8.self).first {
                    keys.append(.character(character))
                }
                index = end
            default: break
            }
        }
        return keys
    }
}
