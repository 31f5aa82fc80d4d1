/// The numbers that make the game: field size, speeds, scoring, levels and chances.
///
/// Distances are field units (the field is ``fieldWidth`` by ``fieldHeight`` whatever the screen),
/// durations are seconds and speeds are units per second; ``Game`` converts them to ticks.
public struct Rules: Sendable, Equatable {
    /// Simulation steps per second; every front end steps at this rate.
    public var ticksPerSecond = 60
    /// Field width in units.
    public var fieldWidth = 320.0
    /// Field height in units.
    public var fieldHeight = 240.0
    /// Height at which the paddle catches things.
    public var paddleY = 222.0
    /// Paddle width before upgrades.
    public var paddleWidth = 48.0
    /// Paddle speed before upgrades, units per second.
    public var paddleSpeed = 210.0
    /// How far past the paddle's edge a thing still counts as caught (its radius).
    public var catchMargin = 5.0
    /// Lives at the start of a game, before upgrades.
    public var lives = 3
    /// Points for a star.
    public var starPoints = 10
    /// Points for a golden star.
    public var goldenStarPoints = 30
    /// Every this many points the level rises (the "every N points").
    public var pointsPerLevel = 60
    /// Fall speed at level 1, units per second.
    public var fallSpeed = 70.0
    /// Fall speed added per level, as a fraction of ``fallSpeed``.
    public var fallSpeedPerLevel = 0.18
    /// Seconds between spawns at level 1.
    public var spawnSeconds = 0.8
    /// Each level multiplies the spawn interval by this.
    public var spawnShrinkPerLevel = 0.88
    /// The spawn interval never drops below this.
    public var minimumSpawnSeconds = 0.3
    /// Seconds before the first spawn of a game.
    public var firstSpawnSeconds = 0.6
    /// Chance that a spawn is a bomb at level 1.
    public var bombChance = 0.22
    /// Bomb chance added per level.
    public var bombChancePerLevel = 0.04
    /// Bomb chance never exceeds this.
    public var maximumBombChance = 0.45
    /// Chance that a bomb is dropped close above a falling star, so greed has a price.
    public var trapChance = 0.5
    /// Chance that a star is golden.
    public var goldenChance = 0.1
    /// Seconds the game-over screen shows before the menu returns.
    public var gameOverSeconds = 2.5

    /// The defaults.
    public init() {}

    /// The game as a person plays it.
    public static let standard = Rules()

    /// The rules of `starfall --autoplay`: two lives instead of three, so the bot's game ends (and
    /// the menu returns) within a 30-40 s render while still showing catches, misses and level-ups.
    public static var autoplay: Rules {
        var rules = Rules()
        rules.lives = 2
        return rules
    }

    /// Seconds as a whole number of ticks (at least one).
    /// - Parameter seconds: A duration.
    /// - Returns: Ticks at ``ticksPerSecond``.
    public func ticks(_ seconds: Double) -> Int {
        max(1, Int((seconds * Double(ticksPerSecond)).rounded()))
    }

    /// The level reached with `score` points.
    /// - Parameter score: Points so far.
    /// - Returns: 1 for fewer than ``pointsPerLevel`` points, then one more per ``pointsPerLevel``.
    public func level(forScore score: Int) -> Int {
        1 + max(0, score) / max(1, pointsPerLevel)
    }

    /// How fast things spawned at `level` fall.
    /// - Parameter level: The level, from 1.
    /// - Returns: Field units per tick.
    public func fallSpeedPerTick(level: Int) -> Double {
        fallSpeed * (1 + fallSpeedPerLevel * Double(max(0, level - 1))) / Double(ticksPerSecond)
    }

    /// Ticks between spawns at `level`.
    /// - Parameter level: The level, from 1.
    /// - Returns: At least one tick.
    public func spawnTicks(level: Int) -> Int {
        var seconds = spawnSeconds
        for _ in 1..<max(1, level) { seconds *= spawnShrinkPerLevel }
        return ticks(max(minimumSpawnSeconds, seconds))
    }

    /// The chance that a spawn at `level` is a bomb.
    /// - Parameter level: The level, from 1.
    /// - Returns: A probability.
    public func bombChance(level: Int) -> Double {
        min(maximumBombChance, bombChance + bombChancePerLevel * Double(max(0, level - 1)))
    }
}
