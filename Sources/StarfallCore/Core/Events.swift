/// The game's screens. Each has its own music; see ``GameAudio``.
public enum Scene: String, Sendable, Equatable, CaseIterable {
    /// Title, start, upgrades shop, voice notes, quit.
    case menu
    /// Catching stars.
    case game
    /// The final score, shown for ``Rules/gameOverSeconds`` before the menu returns.
    case gameOver = "game-over"
}

/// A star landing on the paddle.
public struct StarCatch: Sendable, Equatable {
    /// Where it was caught, in field units.
    public var x: Double
    /// Points it was worth.
    public var points: Int
    /// Whether it was a golden star.
    public var golden: Bool
    /// Stars caught in a row, this one included (a miss or a bomb resets it).
    public var streak: Int

    /// Creates a catch.
    /// - Parameters:
    ///   - x: Where it was caught.
    ///   - points: Points it was worth.
    ///   - golden: Whether it was a golden star.
    ///   - streak: Stars in a row, this one included.
    public init(x: Double, points: Int, golden: Bool, streak: Int) {
        self.x = x
        self.points = points
        self.golden = golden
        self.streak = streak
    }
}

/// Something that happened during one tick; ``Game/step(_:)`` returns them in the order they
/// happened, and front ends turn them into sound (``GameAudio``) and anything else they like.
public enum GameEvent: Sendable, Equatable {
    /// A new scene began (the first step announces the opening menu).
    case sceneChanged(Scene)
    /// The cursor moved to another line of the menu or the shop.
    case cursorMoved(index: Int)
    /// The shop page opened.
    case shopOpened
    /// The shop page closed, back to the main menu.
    case shopClosed
    /// An upgrade was bought, reaching `level`.
    case upgradeBought(Upgrade, level: Int)
    /// An upgrade could not be bought: too little stardust, or already at its highest level.
    case upgradeRefused(Upgrade)
    /// The voice-notes entry was chosen.
    case voiceNotesRequested
    /// Quit was chosen (or back was pressed on the main menu).
    case quitRequested
    /// A bomb appeared at the top of the field.
    case bombSpawned(x: Double)
    /// A star landed on the paddle.
    case starCaught(StarCatch)
    /// A star fell past the paddle.
    case starMissed(x: Double)
    /// A bomb landed on the paddle.
    case bombHit(x: Double, livesLeft: Int)
    /// A bomb fell past the paddle harmlessly.
    case bombDodged(x: Double)
    /// The score passed another ``Rules/pointsPerLevel``; things now fall faster.
    case levelUp(Int)
    /// The last life was lost.
    case gameOver(score: Int)
    /// The game was paused.
    case paused
    /// The game was resumed (also when a paused game is left for the menu).
    case resumed
}
