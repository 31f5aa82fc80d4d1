import SoundStation

/// Turns the game's events into sound. This is the part a game author copies: scene code never
/// touches the engine, it reports what happened and this mapping decides what is heard.
///
/// As in the seed design, music switches per scene (each track preloaded, rewound to its start, the
/// other stopped) and effects go through stations: one station for everything on the playfield,
/// where several effects often fire in the same frame, and stations of a single sound for the menu's
/// click and the shop's purchase.
///
/// ```swift
/// let audio = GameAudio(sound: sound)
/// let events = game.step(input)
/// audio.handle(events)  // real time: heard at once
/// audio.handle(events, at: Double(tick) / 60)  // offline: heard at that frame exactly
/// ```
public final class GameAudio: Sendable {
    /// Engine, catalogue, bank and music station.
    public let sound: SoundSystem
    /// The playfield's effects: the seed's game effect station.
    public let gameEffects: EffectStation
    /// The shop's single sound: the seed's single-effect station.
    public let shopEffect: EffectStation
    /// The menu cursor's single sound.
    public let menuEffect: EffectStation
    /// How long the music takes to fade out when a game ends.
    public static let gameOverFade = 0.5

    private let fieldWidth: Double
    private let notice: @Sendable (String) -> Void
    private let reported = Locked<Set<String>>([])

    /// Wraps a sound system whose bank the caller preloads (``SoundBank/preload(_:progress:)``).
    /// - Parameters:
    ///   - sound: The game's sound system.
    ///   - fieldWidth: The playfield's width, to pan effects to where they happen.
    ///   - notice: Told once per sound that cannot be played (not loaded, not in the catalogue), so a
    ///     broken asset costs its sound, never the game.
    public init(
        sound: SoundSystem, fieldWidth: Double = Rules.standard.fieldWidth,
        notice: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.sound = sound
        self.fieldWidth = fieldWidth
        self.notice = notice
        gameEffects = EffectStation(bank: sound.bank, sounds: Self.playfieldEffects.map(\.rawValue))
        shopEffect = EffectStation(bank: sound.bank, sounds: [Effect.upgrade.rawValue])
        menuEffect = EffectStation(bank: sound.bank, sounds: [Effect.click.rawValue])
    }

    /// Plays what `events` call for.
    /// - Parameters:
    ///   - events: One tick's events, in order.
    ///   - time: When they happened on the engine clock; `nil` for now. Offline renders pass the
    ///     tick's time so every sound starts at its exact frame.
    /// - Returns: What was played, for logs and the autoplay summary.
    @discardableResult
    public func handle(_ events: [GameEvent], at time: Double? = nil) -> [AudioCue] {
        events.flatMap { handle($0, at: time) }
    }

    /// Plays what one event calls for.
    /// - Parameters:
    ///   - event: Something that happened in the game.
    ///   - time: When, on the engine clock; `nil` for now.
    /// - Returns: What was played.
    @discardableResult
    public func handle(_ event: GameEvent, at time: Double? = nil) -> [AudioCue] {
        switch event {
        case .sceneChanged(let scene):
            return enter(scene, at: time)
        case .cursorMoved, .shopOpened, .shopClosed:
            return play(.click, on: menuEffect, at: time)
        case .upgradeBought:
            return play(.upgrade, on: shopEffect, at: time)
        case .upgradeRefused:
            return play(.hit, on: sound.effects, volume: 0.6, at: time)
        case .starCaught(let caught):
            // Each star in a streak sounds a semitone higher, up to a fifth: the player hears the
            // streak building without looking at the score.
            let pitch = Self.semitones[min(caught.streak - 1, Self.semitones.count - 1)]
            var cues = play(.reward, pitch: pitch, pan: pan(caught.x), at: time)
            if caught.golden { cues += play(.coin, pan: pan(caught.x), at: time) }
            return cues
        case .starMissed(let x):
            return play(.miss, volume: 0.8, pan: pan(x), at: time)
        case .bombSpawned(let x):
            return play(.bombTick, volume: 0.6, pan: pan(x), at: time)
        case .bombHit(let x, _):
            return play(.explosion, pan: pan(x) / 2, at: time) + play(.hit, pan: pan(x), at: time)
        case .bombDodged(let x):
            return play(.jump, volume: 0.5, pan: pan(x), at: time)
        case .levelUp:
            return play(.levelUp, at: time)
        case .paused:
            sound.engine.pauseAll()
            return []
        case .resumed:
            sound.engine.resumeAll()
            return []
        case .gameOver, .voiceNotesRequested, .quitRequested:
            return []
        }
    }

    /// The effects of the game scene.
    private static let playfieldEffects: [Effect] = [
        .reward, .coin, .miss, .bombTick, .explosion, .hit, .jump, .levelUp,
    ]

    /// Pitch ratios of 0...7 semitones.
    private static let semitones: [Float] = [
        1, 1.059_463, 1.122_462, 1.189_207, 1.259_921, 1.334_840, 1.414_214, 1.498_307,
    ]

    private func enter(_ scene: Scene, at time: Double?) -> [AudioCue] {
        let when = time ?? sound.engine.time
        let track: Music?
        switch scene {
        case .menu: track = .main
        case .game: track = .game
        case .gameOver: track = nil
        }
        guard let track else {
            sound.music.stop(fade: Self.gameOverFade, at: time)
            return [.scene(scene, music: nil, at: when)]
        }
        do {
            // From its start, the other track stopped: the seed's MusicStation.play.
            try sound.music.play(track.rawValue, transition: .cut, at: time)
        } catch {
            report(track.rawValue, error)
            return [.scene(scene, music: nil, at: when)]
        }
        return [.scene(scene, music: track.rawValue, at: when)]
    }

    private func play(
        _ effect: Effect, on station: EffectStation? = nil, volume: Float = 1, pitch: Float = 1,
        pan: Float = 0, at time: Double?
    ) -> [AudioCue] {
        let when = time ?? sound.engine.time
        do {
            let voice = try (station ?? gameEffects).play(
                effect, volume: volume, pitch: pitch, pan: pan, at: time)
            // A refused voice (its sound at its limit) was not heard, so it is not reported either.
            guard voice != nil else { return [] }
        } catch {
            report(effect.rawValue, error)
            return []
        }
        return [.effect(name: effect.rawValue, at: when, volume: volume, pitch: pitch, pan: pan)]
    }

    private func pan(_ x: Double) -> Float {
        guard fieldWidth > 0 else { return 0 }
        return Float(max(-1, min(1, x / fieldWidth * 2 - 1)) * 0.7)
    }

    private func report(_ name: String, _ error: SoundLoadError) {
        let first = reported.withLock { $0.insert(name).inserted }
        if first { notice("\(error.description) The game goes on without \"\(name)\".") }
    }
}
