import StarfallCore

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

    /// Takes a key pressed since the last tick into account.
    mutating func add(_ key: Key) {
        switch key {
        case .left, .right:
            direction = key == .left ? -1 : 1
            heldTicks = Self.holdTicks
        case .up: presses.up = true
        case .down: presses.down = true
        case .select: presses.select = true
        case .back: presses.back = true
        case .pause: presses.pause = true
        case .interrupt: break
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
