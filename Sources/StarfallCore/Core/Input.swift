/// What the player does during one tick, whatever the device.
///
/// `horizontal` is a held direction (the paddle moves while it is held); the rest are presses that
/// count once, so a front end collects them between ticks and hands them to a single ``Game/step(_:)``.
public struct Input: Sendable, Equatable {
    /// -1 left, 0 still, 1 right.
    public var horizontal: Int
    /// Menu cursor up.
    public var up: Bool
    /// Menu cursor down.
    public var down: Bool
    /// Choose the menu line (Space, Enter, controller A).
    public var select: Bool
    /// Back to the menu, or quit from it (Esc, `q`, controller B).
    public var back: Bool
    /// Pause or resume a game (`p`, controller Start).
    public var pause: Bool

    /// Creates an input; every field defaults to "nothing".
    /// - Parameters:
    ///   - horizontal: -1 left, 0 still, 1 right.
    ///   - up: Menu cursor up.
    ///   - down: Menu cursor down.
    ///   - select: Choose.
    ///   - back: Back or quit.
    ///   - pause: Pause or resume.
    public init(
        horizontal: Int = 0, up: Bool = false, down: Bool = false, select: Bool = false,
        back: Bool = false, pause: Bool = false
    ) {
        self.horizontal = max(-1, min(1, horizontal))
        self.up = up
        self.down = down
        self.select = select
        self.back = back
        self.pause = pause
    }

    /// No input at all.
    public static let none = Input()

    /// This input with the presses of `other` added (a press in either counts); the held direction
    /// is `other`'s when it has one.
    /// - Parameter other: Input that arrived later in the same tick.
    /// - Returns: The combination.
    public func merged(with other: Input) -> Input {
        Input(
            horizontal: other.horizontal != 0 ? other.horizontal : horizontal,
            up: up || other.up, down: down || other.down, select: select || other.select,
            back: back || other.back, pause: pause || other.pause)
    }
}
