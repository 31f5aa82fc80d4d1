/// What the menu's shop sells for stardust (the points of finished games).
public enum Upgrade: String, Sendable, Equatable, CaseIterable {
    /// A wider paddle: a quarter of its width per level.
    case widerPaddle = "wider paddle"
    /// A faster paddle: a fifth of its speed per level.
    case fasterPaddle = "faster paddle"
    /// One more life per level.
    case extraLife = "extra life"

    /// The highest level each upgrade can reach.
    public static let maximumLevel = 3

    /// Stardust for the next level when `level` levels are owned.
    /// - Parameter level: Levels owned so far.
    /// - Returns: The price, rising with each level bought.
    public func cost(afterLevel level: Int) -> Int {
        let base =
            switch self {
            case .widerPaddle: 40
            case .fasterPaddle: 30
            case .extraLife: 60
            }
        return base * (level + 1)
    }
}
