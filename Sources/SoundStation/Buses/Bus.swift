/// A group of sounds whose volume is set together, under the master bus.
public enum Bus: String, Sendable, CaseIterable, Hashable {
    /// Scales everything, including the other buses.
    case master
    /// Background tracks.
    case music
    /// One-shot game effects.
    case effects
    /// Voice notes and speech.
    case voice
}

extension Bus {
    /// Hashes the bus's number, not its name: the standard library's default for a `String` raw
    /// value hashes the name, and housekeeping looks a bus up several times every round.
    /// - Parameter hasher: The hasher to feed.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(index)
    }

    /// The bus's number in a command (its place in ``allCases``), without building that array.
    var index: UInt8 {
        switch self {
        case .master: 0
        case .music: 1
        case .effects: 2
        case .voice: 3
        }
    }

    /// The bus numbered `index` in a command; effects for a number out of range.
    init(index: UInt8) {
        switch index {
        case 0: self = .master
        case 1: self = .music
        case 3: self = .voice
        default: self = .effects
        }
    }
}
