import SoundStation

/// The whole game as a value: scenes, menu, shop, playfield and score, advanced one fixed tick at a
/// time by ``step(_:)``.
///
/// It knows nothing of screens, keyboards or sound. Front ends feed it an ``Input`` per tick, draw
/// its state and hand the returned ``GameEvent``s to ``GameAudio``. Equal seeds and equal inputs give
/// equal games, which is what lets `starfall --autoplay` render the same audio bytes every time.
public struct Game: Sendable {
    /// The numbers the game plays by.
    public let rules: Rules
    /// The main menu's lines.
    public let menuItems: [MenuItem]

    /// The current scene.
    public internal(set) var scene: Scene = .menu
    /// Ticks since the game was created (the autoplay clock: tick `n` is at `n / ticksPerSecond` s).
    public internal(set) var tick = 0
    /// Ticks since the current scene began.
    public internal(set) var sceneTicks = 0
    /// Whether the shop page is showing instead of the main menu.
    public internal(set) var shopIsOpen = false
    /// The highlighted line of the main menu.
    public internal(set) var menuCursor = 0
    /// The highlighted line of the shop (an index into ``ShopItem/all``).
    public internal(set) var shopCursor = 0
    /// Points of finished games, spent in the shop.
    public internal(set) var stardust = 0
    /// Levels bought of each upgrade.
    public internal(set) var upgradeLevels: [Upgrade: Int] = [:]
    /// The best final score so far.
    public internal(set) var bestScore = 0

    /// Points in the current (or last) game.
    public internal(set) var score = 0
    /// The current level, from 1.
    public internal(set) var level = 1
    /// Lives left.
    public internal(set) var lives = 0
    /// Stars caught in a row.
    public internal(set) var streak = 0
    /// Whatever is falling, oldest first.
    public internal(set) var things: [FallingThing] = []
    /// The player's paddle.
    public internal(set) var paddle: Paddle
    /// Whether the game is paused.
    public internal(set) var isPaused = false

    var random: SplitMix64
    var spawnCountdown = 0
    var nextThingID = 0
    var announcedOpening = false

    /// Creates a game at the main menu.
    /// - Parameters:
    ///   - rules: The numbers to play by.
    ///   - seed: Decides every spawn; equal seeds and inputs give equal games.
    ///   - offersVoiceNotes: Whether the menu shows "voice notes" (only when the front end has a screen
    ///     for it).
    public init(rules: Rules = .standard, seed: UInt64, offersVoiceNotes: Bool = false) {
        self.rules = rules
        menuItems = MenuItem.allCases.filter { $0 != .voiceNotes || offersVoiceNotes }
        random = SplitMix64(seed: seed)
        paddle = Paddle(
            x: rules.fieldWidth / 2, width: rules.paddleWidth,
            speed: rules.paddleSpeed / Double(rules.ticksPerSecond))
    }

    /// The level bought of `upgrade`.
    /// - Parameter upgrade: An upgrade.
    /// - Returns: 0 when never bought.
    public func level(of upgrade: Upgrade) -> Int { upgradeLevels[upgrade, default: 0] }

    /// Ticks left on the game-over screen before the menu returns.
    public var gameOverTicksLeft: Int {
        scene == .gameOver ? max(0, rules.ticks(rules.gameOverSeconds) - sceneTicks) : 0
    }

    /// Advances the game by one tick.
    /// - Parameter input: What the player did during the tick.
    /// - Returns: What happened, in order; the first call announces the menu scene.
    public mutating func step(_ input: Input) -> [GameEvent] {
        var events: [GameEvent] = []
        if !announcedOpening {
            announcedOpening = true
            events.append(.sceneChanged(scene))
        }
        switch scene {
        case .menu: stepMenu(input, events: &events)
        case .game: stepGame(input, events: &events)
        case .gameOver: stepGameOver(input, events: &events)
        }
        tick += 1
        sceneTicks += 1
        return events
    }

    /// Enters `next`, announcing it.
    mutating func enter(_ next: Scene, events: inout [GameEvent]) {
        scene = next
        // The step that follows counts as the scene's first tick.
        sceneTicks = -1
        events.append(.sceneChanged(next))
    }

    private mutating func stepGameOver(_ input: Input, events: inout [GameEvent]) {
        // A key skips the wait; otherwise the menu returns on its own.
        if input.select || input.back || sceneTicks + 1 >= rules.ticks(rules.gameOverSeconds) {
            enterMenu(events: &events)
        }
    }
}
