import Testing

@testable import StarfallCore

@Suite struct AutopilotTests {
    /// What one bot run of the autoplay length did.
    struct Story {
        var scenes: [(Scene, Double)] = []
        var caught = 0
        var missed = 0
        var bombHits = 0
        var levelUps = 0
        var bought = 0
    }

    static func story(seed: UInt64, seconds: Double = 35) -> Story {
        var game = Game(rules: .autoplay, seed: seed)
        var bot = Autopilot(seed: seed)
        var story = Story()
        for tick in 0..<Int(seconds * 60) {
            for event in game.step(bot.input(for: game)) {
                switch event {
                case .sceneChanged(let scene): story.scenes.append((scene, Double(tick) / 60))
                case .starCaught: story.caught += 1
                case .starMissed: story.missed += 1
                case .bombHit: story.bombHits += 1
                case .levelUp: story.levelUps += 1
                case .upgradeBought, .upgradeRefused: story.bought += 1
                default: break
                }
            }
        }
        return story
    }

    @Test(arguments: UInt64(1)...12)
    func aThirtyFiveSecondRunShowsTheWholeGame(seed: UInt64) {
        let story = Self.story(seed: seed)
        let names = story.scenes.map(\.0)
        #expect(Array(names.prefix(4)) == [.menu, .game, .gameOver, .menu], "seed \(seed)")
        if story.scenes.count >= 4 {
            #expect(story.scenes[1].1 >= 2, "a few seconds in the menu first")
            #expect(story.scenes[3].1 <= 33, "back in the menu before the end, seed \(seed)")
        }
        #expect(story.caught >= 5, "seed \(seed)")
        #expect(story.levelUps >= 1, "seed \(seed)")
        #expect(story.bombHits >= Rules.autoplay.lives, "seed \(seed)")
        #expect(story.bought >= 1, "the bot visits the shop after its game, seed \(seed)")
    }

    @Test func theBotMissesStarsInMostRuns() {
        let missing = (UInt64(1)...12).filter { Self.story(seed: $0).missed == 0 }
        #expect(missing.count <= 2, "seeds without a miss: \(missing)")
    }
}
