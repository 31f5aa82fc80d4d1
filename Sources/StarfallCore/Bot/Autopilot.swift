import SoundStation

/// A player made of code, for `starfall --autoplay`, `--bot` demos and tests.
///
/// In the menu it follows a short script (look around, then start; on later visits, shop first). In a
/// game it chases the star that lands soonest among those it can reach and steps aside from bombs it
/// notices. It is deliberately fallible, and more so the longer it plays: it reacts a few ticks late,
/// aims a little off, sometimes chases a star it cannot reach, overlooks more bombs and, after about
/// eight seconds, now and then takes a bomb for a star, so every game ends and a 30-40 s autoplay shows
/// catches, misses, a level-up, bomb hits and game over.
public struct Autopilot: Sendable {
    private struct Step {
        var tick: Int
        var input: Input
    }

    /// First visit: move the cursor about, then start.
    private static let firstVisit = [
        Step(tick: 60, input: Input(down: true)),
        Step(tick: 110, input: Input(up: true)),
        Step(tick: 180, input: Input(select: true)),
    ]

    /// Later visits: buy in the shop (or be refused), then start.
    private static let laterVisits = [
        Step(tick: 60, input: Input(down: true)),
        Step(tick: 100, input: Input(select: true)),
        Step(tick: 150, input: Input(select: true)),
        Step(tick: 200, input: Input(down: true)),
        Step(tick: 240, input: Input(select: true)),
        Step(tick: 290, input: Input(back: true)),
        Step(tick: 330, input: Input(up: true)),
        Step(tick: 380, input: Input(select: true)),
    ]

    private var random: SplitMix64
    private var scene: Scene?
    private var sceneStart = 0
    private var menuVisits = 0
    private var target: Double?
    private var nextThought = 0
    private var noticed: [Int: Bool] = [:]
    private var mistakenBomb: Int?

    /// Creates a bot.
    /// - Parameter seed: Decides its mistakes; use the game's seed for a reproducible run.
    public init(seed: UInt64) {
        random = SplitMix64(seed: seed).split(stream: 0xB07)
    }

    /// What the bot does this tick.
    /// - Parameter game: The game as it is before the tick.
    /// - Returns: The bot's input for ``Game/step(_:)``.
    public mutating func input(for game: Game) -> Input {
        if game.scene != scene {
            if game.scene == .menu, scene != nil { menuVisits += 1 }
            scene = game.scene
            sceneStart = game.tick
            target = nil
            nextThought = game.tick
            noticed = [:]
            mistakenBomb = nil
        }
        let elapsed = game.tick - sceneStart
        switch game.scene {
        case .menu:
            let plan = menuVisits == 0 ? Self.firstVisit : Self.laterVisits
            return plan.first { $0.tick == elapsed }?.input ?? .none
        case .game:
            return play(game, seconds: Double(elapsed) / Double(game.rules.ticksPerSecond))
        case .gameOver:
            return .none
        }
    }

    private mutating func play(_ game: Game, seconds: Double) -> Input {
        let paddle = game.paddle
        if game.tick >= nextThought {
            nextThought = game.tick + 6 + Int(random.unit() * 7)
            chooseTarget(game, seconds: seconds)
        }
        var goal = target ?? paddle.x
        let rules = game.rules
        // Each bomb is noticed or not once, when first seen; tiredness makes "not" likelier.
        let awareness = max(0.15, 0.9 - 0.035 * seconds)
        for bomb in game.things where bomb.kind == .bomb {
            guard bomb.y < rules.paddleY, bomb.id != mistakenBomb else { continue }
            let seen = noticed[bomb.id] ?? random.chance(awareness)
            noticed[bomb.id] = seen
            let ticksToLand = (rules.paddleY - bomb.y) / bomb.speed
            guard seen, ticksToLand < 50 else { continue }
            let clearance = paddle.width / 2 + rules.catchMargin + 4
            if abs(bomb.x - goal) < clearance {
                let left = bomb.x - clearance
                let right = bomb.x + clearance
                let leftFits = left >= paddle.width / 2
                let rightFits = right <= rules.fieldWidth - paddle.width / 2
                let leftIsNearer = abs(left - paddle.x) <= abs(right - paddle.x)
                goal = leftFits && (leftIsNearer || !rightFits) ? left : right
            }
        }
        let distance = goal - paddle.x
        guard abs(distance) > paddle.speed / 2 else { return .none }
        return Input(horizontal: distance < 0 ? -1 : 1)
    }

    private mutating func chooseTarget(_ game: Game, seconds: Double) {
        let rules = game.rules
        let paddle = game.paddle
        let stars = game.things.filter { $0.isStar && $0.y < rules.paddleY }
        func ticksToLand(_ star: FallingThing) -> Double { (rules.paddleY - star.y) / star.speed }
        let reachable = stars.filter { star in
            let travel = max(0, abs(star.x - paddle.x) - paddle.width * 0.3)
            return travel / paddle.speed <= ticksToLand(star)
        }
        // The longer it plays, the likelier it takes a bomb for a star: the deliberate error that ends
        // its games in reasonable time.
        let bombs = game.things.filter { $0.kind == .bomb && $0.y < rules.paddleY / 2 }
        let confused = random.chance(min(0.5, max(0, (seconds - 8) * 0.03)))
        let chosen: FallingThing?
        if let mistaken = game.things.first(where: { $0.id == mistakenBomb && $0.y < rules.paddleY }) {
            // Once fooled it stays fooled until the bomb lands.
            chosen = mistaken
        } else if confused, let bomb = bombs.first {
            chosen = bomb
            mistakenBomb = bomb.id
        } else if random.chance(min(0.35, 0.03 + 0.012 * seconds)) {
            mistakenBomb = nil
            chosen = stars.isEmpty ? nil : stars[Int(random.unit() * Double(stars.count))]
        } else {
            mistakenBomb = nil
            chosen = reachable.min { ticksToLand($0) < ticksToLand($1) }
        }
        let aim = random.value(in: -0.3...0.3) * paddle.width
        target = chosen.map { $0.x + aim }
    }
}
