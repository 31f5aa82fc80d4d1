import Foundation
import SoundStation

@testable import StarfallCore

/// Paths and shared runs for the tests.
enum Fixtures {
    /// The repository's `Assets` folder, found from this file's location.
    static let assetsRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.appendingPathComponent("Assets").path
    }()

    /// The seed and length of the autoplay run the audio tests measure.
    static let seed: UInt64 = 7
    static let seconds = 35.0

    /// One autoplay render shared by the tests that only read it (it takes a few seconds).
    static let autoplay = Task {
        try await Autoplay.run(seconds: seconds, seed: seed, assetsRoot: assetsRoot)
    }

    /// A game started from the menu, with spawning held off so a test places what falls.
    static func startedGame(_ rules: Rules = .standard, seed: UInt64 = 1) -> Game {
        var game = Game(rules: rules, seed: seed)
        _ = game.step(.none)
        _ = game.step(Input(select: true))
        game.spawnCountdown = .max
        return game
    }

    /// A star or bomb one tick above the paddle's centre.
    static func about(toLand kind: FallingThing.Kind, on game: Game, offset: Double = 0, id: Int = 1000)
        -> FallingThing
    {
        FallingThing(id: id, kind: kind, x: game.paddle.x + offset, y: game.rules.paddleY - 1, speed: 2)
    }
}
