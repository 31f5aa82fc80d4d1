/// A key the terminal front end acts on.
enum Key: Equatable {
    case up
    case down
    case left
    case right
    case select
    case back
    case pause
    case interrupt
}

/// Turns the bytes a terminal sends into keys: letters, Enter, Space, Ctrl-C, a lone Esc, and arrow
/// escape sequences in both cursor modes (`ESC [ A` and `ESC O A`). Other sequences are skipped whole.
enum KeyDecoder {
    /// The keys in `bytes`, in order; bytes that are no key of the game are skipped.
    static func decode(_ bytes: [UInt8]) -> [Key] {
        var keys: [Key] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            guard byte == 0x1B else {
                if let key = plain(byte) { keys.append(key) }
                continue
            }
            guard index < bytes.count, bytes[index] == UInt8(ascii: "[") || bytes[index] == UInt8(ascii: "O")
            else {
                // Terminals send a sequence in one write, so an Esc with nothing after it is the key.
                keys.append(.back)
                continue
            }
            var end = index + 1
            while end < bytes.count, !(0x40...0x7E).contains(bytes[end]) { end += 1 }
            if end < bytes.count, let arrow = arrow(bytes[end]) { keys.append(arrow) }
            index = end + 1
        }
        return keys
    }

    private static func arrow(_ final: UInt8) -> Key? {
        switch final {
        case UInt8(ascii: "A"): .up
        case UInt8(ascii: "B"): .down
        case UInt8(ascii: "C"): .right
        case UInt8(ascii: "D"): .left
        default: nil
        }
    }

    private static func plain(_ byte: UInt8) -> Key? {
        switch byte {
        case 0x03: .interrupt
        case 0x0D, 0x0A, UInt8(ascii: " "): .select
        case UInt8(ascii: "p"), UInt8(ascii: "P"): .pause
        case UInt8(ascii: "q"), UInt8(ascii: "Q"): .back
        case UInt8(ascii: "a"), UInt8(ascii: "A"), UInt8(ascii: "h"): .left
        case UInt8(ascii: "d"), UInt8(ascii: "D"), UInt8(ascii: "l"): .right
        case UInt8(ascii: "w"), UInt8(ascii: "W"), UInt8(ascii: "k"): .up
        case UInt8(ascii: "s"), UInt8(ascii: "S"), UInt8(ascii: "j"): .down
        default: nil
        }
    }
}
