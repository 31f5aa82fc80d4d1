import Testing

@testable import StarfallCore

@Suite struct GameRulesTests {
    @Test func firstStepAnnouncesTheMenuAndSelectStartsAGame() {
        var game = Game(seed: 1)
        #expect(game.step(.none) == [.sceneChanged(.menu)])
        #expect(game.step(.none).isEmpty)
        #expect(game.step(Input(select: true)) == [.sceneChanged(.game)])
        #expect(game.scene == .game)
        #expect(game.lives == Rules.standard.lives)
        #expect(game.score == 0 && game.level == 1)
    }

    @Test func catchingStarsScoresAndBuildsAStreak() {
        var game = Fixtures.startedGame()
        game.things = [Fixtures.about(toLand: .star, on: game)]
        let first = game.step(.none)
        #expect(first == [.starCaught(StarCatch(x: game.paddle.x, points: 10, golden: false, streak: 1))])
        game.things = [Fixtures.about(toLand: .goldenStar, on: game, offset: game.paddle.width / 2)]
        let second = game.step(.none)
        guard case .starCaught(let caught) = second.first else {
            Issue.record("expected a catch, got \(second)")
            return
        }
        #expect(caught.points == 30 && caught.golden && caught.streak == 2)
        #expect(game.score == 40 && game.streak == 2 && game.things.isEmpty)
    }

    @Test func theLevelRisesEveryNPointsAndThingsFallFaster() {
        var rules = Rules.standard
        rules.pointsPerLevel = 20
        var game = Fixtures.startedGame(rules)
        var events: [GameEvent] = []
        for id in 0..<4 {
            game.things = [Fixtures.about(toLand: .star, on: game, id: id)]
            events += game.step(.none)
        }
        #expect(
            events.filter { if case .levelUp = $0 { true } else { false } } == [.levelUp(2), .levelUp(3)])
        #expect(game.level == 3 && game.score == 40)
        #expect(rules.fallSpeedPerTick(level: 3) > rules.fallSpeedPerTick(level: 1))
        #expect(rules.spawnTicks(level: 3) < rules.spawnTicks(level: 1))
        game.spawnCountdown = 1
        game.things = []
        _ = game.step(.none)
        #expect(game.things.first?.speed == rules.fallSpeedPerTick(level: 3))
    }

    @Test func bombsCostLivesAndTheLastOneEndsTheGame() {
        var game = Fixtures.startedGame()
        game.score = 70
        game.things = [Fixtures.about(toLand: .bomb, on: game)]
        #expect(game.step(.none) == [.bombHit(x: game.paddle.x, livesLeft: 2)])
        #expect(game.streak == 0)
        game.lives = 1
        game.things = [Fixtures.about(toLand: .bomb, on: game, id: 1)]
        #expect(
            game.step(.none) == [
                .bombHit(x: game.paddle.x, livesLeft: 0), .gameOver(score: 70), .sceneChanged(.gameOver),
            ])
        #expect(game.scene == .gameOver)
        #expect(game.stardust == 70 && game.bestScore == 70)
    }

    @Test func gameOverReturnsToTheMenuAfterItsDelay() {
        var game = Fixtures.startedGame()
        game.lives = 1
        game.things = [Fixtures.about(toLand: .bomb, on: game)]
        _ = game.step(.none)
        let delay = game.rules.ticks(game.rules.gameOverSeconds)
        for _ in 1..<delay { #expect(game.step(Input(horizontal: 1)).isEmpty) }
        #expect(game.step(.none) == [.sceneChanged(.menu)])
        #expect(game.menuCursor == 0 && game.things.isEmpty)
    }

    @Test func missedStarsAndDodgedBombsFallPast() {
        var game = Fixtures.startedGame()
        game.streak = 3
        let far = game.paddle.width + 20
        game.things = [
            FallingThing(id: 1, kind: .star, x: game.paddle.x + far, y: game.rules.fieldHeight + 4, speed: 2),
            FallingThing(id: 2, kind: .bomb, x: game.paddle.x - far, y: game.rules.fieldHeight + 4, speed: 2),
        ]
        let events = game.step(.none)
        #expect(events == [.starMissed(x: game.paddle.x + far), .bombDodged(x: game.paddle.x - far)])
        #expect(game.streak == 0 && game.lives == 3 && game.score == 0)
    }

    @Test func thePaddleMovesWithInputAndStaysInTheField() {
        var game = Fixtures.startedGame()
        let start = game.paddle.x
        _ = game.step(Input(horizontal: 1))
        #expect(game.paddle.x == start + game.paddle.speed)
        for _ in 0..<600 { _ = game.step(Input(horizontal: -1)) }
        #expect(game.paddle.left == 0)
    }

    @Test func pauseFreezesTheFieldAndBackLeavesUnpaused() {
        var game = Fixtures.startedGame()
        game.things = [FallingThing(id: 1, kind: .star, x: 40, y: 50, speed: 2)]
        #expect(game.step(Input(pause: true)) == [.paused])
        let paddle = game.paddle
        _ = game.step(Input(horizontal: 1))
        #expect(game.things[0].y == 50 && game.paddle == paddle)
        #expect(game.step(Input(pause: true)) == [.resumed])
        _ = game.step(.none)
        #expect(game.things[0].y == 54)
        _ = game.step(Input(pause: true))
        #expect(game.step(Input(back: true)) == [.resumed, .sceneChanged(.menu)])
        #expect(!game.isPaused && game.scene == .menu)
    }

    @Test func theShopSellsUpgradesForStardust() {
        var game = Game(seed: 1)
        _ = game.step(.none)
        game.stardust = 100
        #expect(game.step(Input(down: true)) == [.cursorMoved(index: 1)])
        #expect(game.step(Input(select: true)) == [.shopOpened])
        #expect(game.step(Input(select: true)) == [.upgradeBought(.widerPaddle, level: 1)])
        #expect(game.stardust == 60)
        #expect(game.step(Input(select: true)) == [.upgradeRefused(.widerPaddle)])
        #expect(
            game.step(Input(down: true, select: true)) == [
                .cursorMoved(index: 1), .upgradeBought(.fasterPaddle, level: 1),
            ])
        #expect(game.stardust == 30)
        #expect(game.step(Input(back: true)) == [.shopClosed])
        _ = game.step(Input(up: true))
        _ = game.step(Input(select: true))
        #expect(game.paddle.width == Rules.standard.paddleWidth * 1.25)
        #expect(game.paddle.speed > Rules.standard.paddleSpeed / 60)
    }

    @Test func theMenuWrapsQuitsAndOffersVoiceNotesOnlyWhenAsked() {
        #expect(Game(seed: 1).menuItems == [.start, .upgrades, .quit])
        var game = Game(seed: 1, offersVoiceNotes: true)
        #expect(game.menuItems == [.start, .upgrades, .voiceNotes, .quit])
        _ = game.step(.none)
        #expect(game.step(Input(up: true)) == [.cursorMoved(index: 3)])
        #expect(game.step(Input(select: true)) == [.quitRequested])
        _ = game.step(Input(up: true))
        #expect(game.step(Input(select: true)) == [.voiceNotesRequested])
        #expect(game.step(Input(back: true)) == [.quitRequested])
    }

    @Test func equalSeedsAndInputsGiveEqualGames() {
        func play(_ seed: UInt64) -> [GameEvent] {
            var game = Game(seed: seed)
            var events: [GameEvent] = []
            for tick in 0..<3_000 {
                let input = Input(horizontal: tick / 90 % 3 - 1, select: tick % 400 == 10)
                events += game.step(input)
            }
            return events
        }
        #expect(play(5) == play(5))
        #expect(play(5) != play(6))
    }
}
