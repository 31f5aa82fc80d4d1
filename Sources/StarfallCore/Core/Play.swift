extension Game {
    /// A fresh game with the shop's upgrades applied.
    mutating func startGame(events: inout [GameEvent]) {
        score = 0
        level = 1
        streak = 0
        isPaused = false
        things = []
        lives = rules.lives + level(of: .extraLife)
        paddle = Paddle(
            x: rules.fieldWidth / 2,
            width: rules.paddleWidth * (1 + 0.25 * Double(level(of: .widerPaddle))),
            speed: rules.paddleSpeed * (1 + 0.2 * Double(level(of: .fasterPaddle)))
                / Double(rules.ticksPerSecond))
        spawnCountdown = rules.ticks(rules.firstSpawnSeconds)
        enter(.game, events: &events)
    }

    /// One tick of play: pause, paddle, spawning, falling, catching.
    mutating func stepGame(_ input: Input, events: inout [GameEvent]) {
        if input.back {
            // Leaving a paused game must not leave the sound paused.
            if isPaused {
                isPaused = false
                events.append(.resumed)
            }
            enterMenu(events: &events)
            return
        }
        if input.pause {
            isPaused.toggle()
            events.append(isPaused ? .paused : .resumed)
        }
        if isPaused { return }
        let half = paddle.width / 2
        paddle.x = min(rules.fieldWidth - half, max(half, paddle.x + Double(input.horizontal) * paddle.speed))
        spawnCountdown -= 1
        if spawnCountdown <= 0 {
            spawn(events: &events)
            spawnCountdown = rules.spawnTicks(level: level)
        }
        fall(events: &events)
    }

    private mutating func spawn(events: inout [GameEvent]) {
        let margin = rules.catchMargin * 2
        var x = random.value(in: margin...(rules.fieldWidth - margin))
        let kind: FallingThing.Kind
        if random.chance(rules.bombChance(level: level)) {
            kind = .bomb
            // A trap: the bomb follows a star that is still high up, slightly to one side.
            let high = things.last { $0.isStar && $0.y < rules.fieldHeight / 3 }
            if let high, random.chance(rules.trapChance) {
                let offset = random.value(in: -paddle.width / 2...paddle.width / 2)
                x = min(rules.fieldWidth - margin, max(margin, high.x + offset))
            }
        } else {
            kind = random.chance(rules.goldenChance) ? .goldenStar : .star
        }
        things.append(
            FallingThing(
                id: nextThingID, kind: kind, x: x, y: -rules.catchMargin,
                speed: rules.fallSpeedPerTick(level: level)))
        nextThingID += 1
        if kind == .bomb { events.append(.bombSpawned(x: x)) }
    }

    private mutating func fall(events: inout [GameEvent]) {
        var kept: [FallingThing] = []
        kept.reserveCapacity(things.count)
        for (index, var thing) in things.enumerated() {
            let before = thing.y
            thing.y += thing.speed
            let reach = paddle.width / 2 + rules.catchMargin
            if before < rules.paddleY, thing.y >= rules.paddleY, abs(thing.x - paddle.x) <= reach {
                land(thing, events: &events)
            } else if thing.y > rules.fieldHeight + rules.catchMargin {
                fellPast(thing, events: &events)
            } else {
                kept.append(thing)
            }
            if lives == 0 {
                // The field freezes under the game-over screen, as it was when the last life went.
                things = kept + things[(index + 1)...]
                bestScore = max(bestScore, score)
                stardust += score
                events.append(.gameOver(score: score))
                enter(.gameOver, events: &events)
                return
            }
        }
        things = kept
    }

    private mutating func land(_ thing: FallingThing, events: inout [GameEvent]) {
        switch thing.kind {
        case .star, .goldenStar:
            let golden = thing.kind == .goldenStar
            let points = golden ? rules.goldenStarPoints : rules.starPoints
            score += points
            streak += 1
            events.append(.starCaught(StarCatch(x: thing.x, points: points, golden: golden, streak: streak)))
            let reached = rules.level(forScore: score)
            if reached > level {
                level = reached
                events.append(.levelUp(level))
            }
        case .bomb:
            lives -= 1
            streak = 0
            events.append(.bombHit(x: thing.x, livesLeft: lives))
        }
    }

    private mutating func fellPast(_ thing: FallingThing, events: inout [GameEvent]) {
        if thing.isStar {
            streak = 0
            events.append(.starMissed(x: thing.x))
        } else {
            events.append(.bombDodged(x: thing.x))
        }
    }
}
