import SoundStation

/// Turns the game's events into sound. This is the part a game author copies: scene code never
/// touches the engine, it reports what happened and this mapping decides what is heard.
///
/// Music switches per scene on the next bar of the track playing (each track preloaded, started
/// from its first downbeat, the other stopped); the game track's layers join as the level rises,
/// and the level-up stinger lands on the next beat. Effects go through stations: one station for everything on the playfield,
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
    /// The playfield's effects: one station for every sound that can fire there.
    public let gameEffects: EffectStation
    /// The shop's single sound: a station of one sound.
    public let shopEffect: EffectStation
    /// The menu cursor's single sound.
    public let menuEffect: EffectStation
    /// How long the music takes to fade out when a game ends.
    public static let gameOverFade = 0.5

    /// How the pause menu dulls the music: a real low-pass at 700 Hz on the music bus, glided in and
    /// out so the music sinks behind the menu rather than switching, and this volume.
    public static let pausedMusic = (
        filter: SoundFilter.lowpass(cutoff: 700), glide: Duration.milliseconds(300), volume: Float(0.6)
    )
    /// The level from which the playfield's effects echo (a cave reverb on the effects bus), if any.
    public let echoLevel: Int?

    private let fieldWidth: Double
    private let fieldHeight: Double
    private let listener: SoundPosition
    private let notice: @Sendable (String) -> Void
    private let reported = Locked<Set<String>>([])
    private let beats = Locked<(count: Int, last: MusicBeat?)>((0, nil))
    private let beatSubscription: EventSubscription

    /// Wraps a sound system whose bank the caller preloads (``SoundBank/preload(_:progress:)``).
    /// - Parameters:
    ///   - sound: The game's sound system.
    ///   - fieldWidth: The playfield's width, to pan effects to where they happen.
    ///   - echoLevel: From this level on the playfield's effects echo (a cave reverb); `nil` for never
    ///     (the autoplay's renders, whose tests take the mix apart sound by sound).
    ///   - notice: Told once per sound that cannot be played (not loaded, not in the catalogue), so a
    ///     broken asset costs its sound, never the game.
    public init(
        sound: SoundSystem, fieldWidth: Double = Rules.standard.fieldWidth, echoLevel: Int? = nil,
        notice: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.echoLevel = echoLevel
        self.sound = sound
        self.fieldWidth = fieldWidth
        self.notice = notice
        // The playfield is the stereo field, heard from the paddle's row: things are heard at their
        // column, and fall from -9 dB at the top to full within 20 units of the paddle.
        let rules = Rules.standard
        fieldHeight = rules.fieldHeight * fieldWidth / rules.fieldWidth
        let paddleY = rules.paddleY * fieldWidth / rules.fieldWidth
        listener = SoundPosition(x: Float(fieldWidth / 2), y: Float(paddleY))
        let layout = SpatialLayout(
            width: Float(max(fieldWidth, 1)),
            distanceModel: .linear(reference: Float(paddleY / 10), maxDistance: Float(paddleY), rolloff: 0.65)
        )
        do {
            try sound.engine.setSpatialLayout(layout)
            try sound.engine.setListener(listener, glide: .zero)
        } catch {
            notice("\(error.description) Effects play unplaced.")
        }
        // The playfield's station follows the music, so the level-up stinger can wait for a beat.
        gameEffects = EffectStation(
            bank: sound.bank, sounds: Self.playfieldEffects.map(\.rawValue), timeline: sound.music)
        shopEffect = EffectStation(bank: sound.bank, sounds: [Effect.upgrade.rawValue])
        menuEffect = EffectStation(bank: sound.bank, sounds: [Effect.click.rawValue])
        beatSubscription = sound.music.onBeat { [beats] beat in
            beats.withLock { $0 = ($0.count + 1, beat) }
        }
    }

    deinit { beatSubscription.cancel() }

    /// How many beats of the music have been heard so far, and the last: a front end pulses its
    /// screen when the count moves (the beats arrive on the engine's thread, each at its frame).
    public var heardBeats: (count: Int, last: MusicBeat?) { beats.withLock { $0 } }

    /// The game track's intensity at a level: its pad and bass and the drums from level 1, the
    /// arpeggio joining at level 2 and the lead from level 3 (the catalogue's stems say where each
    /// joins).
    /// - Parameter level: The level, from 1.
    /// - Returns: 0...1.
    public static func intensity(forLevel level: Int) -> Double {
        let steps = [0.4, 0.65, 1.0]
        return steps[min(max(level, 1), steps.count) - 1]
    }

    /// How long the layers take to join at a level-up.
    public static let intensityGlide = 1.0

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
            var cues = play(.reward, pitch: pitch, at: position(caught.x, onPaddle: true), time: time)
            if caught.golden { cues += play(.coin, at: position(caught.x, onPaddle: true), time: time) }
            return cues
        case .starMissed(let x):
            return play(.miss, volume: 0.8, at: position(x, onPaddle: true), time: time)
        case .bombSpawned(let x):
            // At the top of the field: far from the paddle, so quiet; the hit below is loud.
            return play(.bombTick, volume: 0.6, at: position(x, onPaddle: false), time: time)
        case .bombHit(let x, _):
            return play(.explosion, at: position(x, onPaddle: true), time: time)
                + play(.hit, at: position(x, onPaddle: true), time: time)
        case .bombDodged(let x):
            return play(.jump, volume: 0.5, at: position(x, onPaddle: true), time: time)
        case .levelUp(let level):
            if let echoLevel { setEcho(level >= echoLevel) }
            // The stinger lands on the music's next beat (at once with no music), and the layers
            // that the new level calls for glide in.
            let beat: Double?
            do { beat = try gameEffects.gridTime(of: .nextBeat)?.inSeconds } catch { beat = nil }
            return setIntensity(Self.intensity(forLevel: level), over: Self.intensityGlide, at: time)
                + play(.levelUp, at: beat ?? time)
        case .paused:
            // The music goes on, muffled and lower, under the pause menu; nothing new is triggered.
            muffleMusic(true)
            return []
        case .resumed:
            muffleMusic(false)
            return []
        case .gameOver, .voiceNotesRequested, .quitRequested:
            return []
        }
    }

    /// Game ticks between two ticks of a falling bomb's fuse.
    public static let fuseTicks = 24

    /// Ticks the fuse of every falling bomb, each every ``fuseTicks`` game ticks, where the bomb is
    /// now: as it falls towards the paddle's row it is nearer the listener, so each tick is louder.
    /// Call it once per game tick while a game runs and is not paused.
    /// - Parameters:
    ///   - things: What is falling (``Game/things``).
    ///   - tick: The game's tick count (``Game/sceneTicks``), which spreads the bombs' fuses.
    ///   - time: When, on the engine clock; `nil` for now.
    /// - Returns: The fuse ticks played, with the volume each is heard at.
    @discardableResult
    public func follow(_ things: [FallingThing], tick: Int, at time: Double? = nil) -> [AudioCue] {
        var cues: [AudioCue] = []
        let scale = fieldWidth / Rules.standard.fieldWidth
        for bomb in things where bomb.kind == .bomb && (tick + bomb.id) % Self.fuseTicks == 0 {
            let position = SoundPosition(x: Float(bomb.x), y: Float(min(bomb.y * scale, Double(listener.y))))
            cues += play(.bombTick, volume: 0.5, at: position, time: time)
        }
        return cues
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
        let when = time ?? sound.engine.time.inSeconds
        let track: Music?
        switch scene {
        case .menu: track = .main
        case .game: track = .game
        case .gameOver: track = nil
        }
        if scene != .gameOver {
            muffleMusic(false)
            setEcho(false)
        }
        let playing = sound.music.current
        guard let track else {
            let position = sound.music.musicalPosition(at: .seconds(when))
            sound.music.stop(fade: .seconds(Self.gameOverFade), at: time.map(Duration.seconds))
            let stop = MusicSwitch(
                from: playing, to: nil, asked: when, at: when, bar: position?.bar, beat: position?.beat)
            return [.scene(scene, music: nil, at: when), .music(stop)]
        }
        var cues: [AudioCue] = []
        // A game starts calm: its layers for level 1, set before its track starts.
        if scene == .game { cues += setIntensity(Self.intensity(forLevel: 1), over: 0, at: time) }
        // On the next bar of what plays (at once when nothing does, or it has no tempo), from the new
        // track's first downbeat.
        let switchTime: Duration?
        do { switchTime = try sound.music.time(of: .nextBar) } catch { switchTime = nil }
        let at = switchTime?.inSeconds ?? when
        // Half a frame on, so a point on the grid counts as itself whatever the rounding.
        let position = switchTime.flatMap {
            sound.music.musicalPosition(at: $0 + .seconds(0.5 / Double(sound.engine.sampleRate)))
        }
        do {
            try sound.music.play(
                track.rawValue, transition: .cut, from: .downbeat,
                at: switchTime ?? time.map(Duration.seconds))
        } catch {
            report(track.rawValue, error)
            return [.scene(scene, music: nil, at: when)]
        }
        let change = MusicSwitch(
            from: playing, to: track.rawValue, asked: when, at: at, bar: position?.bar, beat: position?.beat)
        return [.scene(scene, music: track.rawValue, at: when), .music(change)] + cues
    }

    /// Glides the layered music's intensity, reporting it.
    private func setIntensity(_ intensity: Double, over seconds: Double, at time: Double?) -> [AudioCue] {
        let when = time ?? sound.engine.time.inSeconds
        do throws(MusicError) {
            try sound.music.setIntensity(intensity, tween: Tween(.seconds(seconds)))
        } catch {
            report(
                "intensity",
                .engine(
                    name: "music",
                    .invalidArgument(name: "intensity", value: "\(intensity)", expected: error.description)))
            return []
        }
        return [.intensity(intensity, at: when, over: seconds)]
    }

    private func play(
        _ effect: Effect, on station: EffectStation? = nil, volume: Float = 1, pitch: Float = 1,
        pan: Float = 0, at time: Double?
    ) -> [AudioCue] {
        let when = time ?? sound.engine.time.inSeconds
        do {
            let voice = try (station ?? gameEffects).play(
                effect, volume: volume, pitch: pitch, pan: pan, at: time.map(Duration.seconds))
            // A refused voice (its sound at its limit) was not heard, so it is not reported either.
            guard voice != nil else { return [] }
        } catch {
            report(effect.rawValue, error)
            return []
        }
        return [.effect(name: effect.rawValue, at: when, volume: volume, pitch: pitch, pan: pan)]
    }

    /// Where a thing at column `x` is heard: on the paddle's row, or at the top of the field.
    private func position(_ x: Double, onPaddle: Bool) -> SoundPosition {
        SoundPosition(x: Float(x), y: onPaddle ? listener.y : 0)
    }

    /// Plays an effect at a position on the playfield, reporting the pan and volume it is heard at.
    private func play(
        _ effect: Effect, volume: Float = 1, pitch: Float = 1, at position: SoundPosition, time: Double?
    ) -> [AudioCue] {
        let when = time ?? sound.engine.time.inSeconds
        let heard = sound.engine.spatialLayout.placement(of: position, listener: listener)
        do {
            let voice = try gameEffects.play(
                effect.rawValue, position: position, volume: volume, pitch: pitch,
                at: time.map(Duration.seconds))
            guard voice != nil else { return [] }
        } catch {
            report(effect.rawValue, error)
            return []
        }
        return [
            .effect(
                name: effect.rawValue, at: when, volume: volume * heard.gain, pitch: pitch, pan: heard.pan)
        ]
    }

    private func muffleMusic(_ muffled: Bool) {
        do {
            try sound.engine.setFilter(
                muffled ? Self.pausedMusic.filter : nil, for: .music, glide: Self.pausedMusic.glide)
        } catch {
            report("music filter", .engine(name: "music", error))
        }
        do { try sound.engine.setVolume(muffled ? Self.pausedMusic.volume : 1, for: .music) } catch {
            report("music volume", .engine(name: "music", error))
        }
    }

    private func setEcho(_ on: Bool) {
        do {
            try sound.engine.setReverb(on ? ReverbPreset.cave : nil, for: .effects)
        } catch {
            report("echo", .engine(name: "effects", error))
        }
    }

    private func report(_ name: String, _ error: SoundLoadError) {
        let first = reported.withLock { $0.insert(name).inserted }
        if first { notice("\(error.description) The game goes on without \"\(name)\".") }
    }
}
