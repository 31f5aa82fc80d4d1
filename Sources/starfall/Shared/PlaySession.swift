import StarfallCore

/// One run of the game in a front end: the game, its sound, the optional bot and the injected
/// screens. Front ends call ``tick(_:)`` at the game's fixed rate and draw ``game``.
@MainActor
final class PlaySession {
    /// What the front end should do after a tick.
    enum Outcome {
        case keepGoing
        case quit
        case voiceNotes
    }

    /// The game being played.
    private(set) var game: Game
    /// Its sound.
    let sound: GameSound
    /// Screens injected from other targets.
    let screens: ExternalScreens
    /// The music's beat, flashed on screen.
    private(set) var pulse = BeatPulse()
    private var bot: Autopilot?
    private var pending: Input

    /// A session at the menu, or in a game at once with `autostart`.
    init(seed: UInt64, bot: Bool, autostart: Bool, sound: GameSound, screens: ExternalScreens) {
        game = Game(rules: .standard, seed: seed, offersVoiceNotes: screens.openVoiceNotes != nil)
        self.sound = sound
        self.screens = screens
        self.bot = bot ? Autopilot(seed: seed) : nil
        // The cursor starts on "start", so one select on the first tick begins a game.
        pending = autostart ? Input(select: true) : .none
    }

    /// Advances the game one tick with the player's input (and the bot's, when it plays).
    func tick(_ input: Input) -> Outcome {
        var combined = pending.merged(with: input)
        pending = .none
        if var bot {
            combined = bot.input(for: game).merged(with: combined)
            self.bot = bot
        }
        let events = game.step(combined)
        sound.audio.handle(events)
        pulse.tick(heard: sound.audio.heardBeats)
        // Falling bombs tick, louder as they near the paddle.
        if game.scene == .game, !game.isPaused { sound.audio.follow(game.things, tick: game.sceneTicks) }
        if events.contains(.quitRequested) { return .quit }
        if events.contains(.voiceNotesRequested) { return .voiceNotes }
        return .keepGoing
    }

    /// Hands the screen to the voice-notes screen with the game's sound paused.
    /// - Parameters:
    ///   - suspend: Gives up the screen and keyboard (the terminal front end leaves raw mode).
    ///   - resume: Takes them back.
    func openVoiceNotes(suspend: () -> Void, resume: () -> Void) {
        guard let open = screens.openVoiceNotes else { return }
        let engine = sound.system.engine
        engine.pauseAll()
        suspend()
        open()
        resume()
        engine.resumeAll()
    }
}
