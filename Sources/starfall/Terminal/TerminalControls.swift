import StarfallCore
import TerminalKit

/// Keys turned into one ``Input`` per tick.
///
/// A terminal reports presses but never releases, so an arrow press holds the paddle's direction for
/// a few ticks; the keyboard's auto-repeat keeps it held while the key is down.
struct TerminalControls {
    /// Ticks a single arrow press keeps the paddle moving (about 0.15 s).
    static let holdTicks = 9

    private var direction = 0
    private var heldTicks = 0
    private var presses = Input.none

    /// Takes a key pressed since the last tick into account: arrows, A/D, W/S (and h/j/k/l) move,
    /// Space and Enter select, p pauses, Esc and q go back; other keys do nothing.
    mutating func add(_ key: Key) {
        switch Self.action(for: key) {
        case .left:
            direction = -1
            heldTicks = Self.holdTicks
        case .right:
            direction = 1
            heldTicks = Self.holdTicks
        case .up: presses.up = true
        case .down: presses.down = true
        case .select: presses.select = true
        case .back: presses.back = true
        case .pause: presses.pause = true
        case nil: break
        }
    }

    private enum Action { case left, right, up, down, select, back, pause }

    private static func action(for key: Key) -> Action? {
        switch key {
        case .left: .left
        case .right: .right
        case .up: .up
        case .down: .down
        case .enter, .space: .select
        case .escape: .back
        case .character(let character): action(for: character)
        case .interrupt, .backspace: nil
        }
    }

    private static func action(for character: Character) -> Action? {
        switch character {
        case "p", "P": .pause
        case "q", "Q": .back
        case "a", "A", "h": .left
        case "d", "D", "l": .right
        case "w", "W", "k": .up
        case "s", "S", "j": .down
        default: nil
        }
    }

    /// The input for the next tick; presses are used up, a held direction runs down.
    mutating func nextInput() -> Input {
        var input = presses
        input.horizontal = heldTicks > 0 ? direction : 0
        heldTicks = max(0, heldTicks - 1)
        presses = .none
        return input
    }
}
