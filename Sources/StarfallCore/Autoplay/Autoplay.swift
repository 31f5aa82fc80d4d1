import SoundStation

/// The result of an autoplay run.
public struct AutoplayRun: Sendable {
    /// The whole render: 48 kHz stereo float samples.
    public let audio: PCMAudio
    /// Scenes and effects with their times.
    public let summary: AutoplaySummary
    /// The game as it was when the render ended.
    public let game: Game
}

/// `starfall --autoplay`: the bot plays while the sound is rendered offline on the render clock.
///
/// Each tick steps the game with the bot's input, hands the events to ``GameAudio`` with the tick's
/// time, and renders exactly one tick of audio (800 frames at 48 kHz and 60 ticks per second), so
/// every sound starts at frame `round(tick / 60 * 48000)` and equal seeds give equal bytes.
public enum Autoplay {
    /// The render's rate.
    public static let sampleRate = 48_000
    /// The render's channels.
    public static let channels = 2

    /// Plays and renders `seconds` of the game.
    /// - Parameters:
    ///   - seconds: Length of the render.
    ///   - seed: Decides the game and the bot's mistakes.
    ///   - assetsRoot: The folder holding `catalogue.json`.
    ///   - rules: The rules; ``Rules/autoplay`` ends the bot's game within about 30 s.
    /// - Returns: The audio, the summary and the final game.
    /// - Throws: ``AutoplayError`` naming what failed.
    public static func run(
        seconds: Double, seed: UInt64, assetsRoot: String, rules: Rules = .autoplay
    ) async throws(AutoplayError) -> AutoplayRun {
        guard seconds >= 0, seconds <= AutoplayError.maximumSeconds else { throw .badDuration(seconds) }
        guard rules.ticksPerSecond > 0, sampleRate % rules.ticksPerSecond == 0 else {
            throw .ticksDoNotDivideRate(sampleRate: sampleRate, ticksPerSecond: rules.ticksPerSecond)
        }
        let catalogue: Catalogue
        do {
            catalogue = try Catalogue(assetsRoot: assetsRoot)
        } catch {
            throw .catalogue(error)
        }
        let engine: AudioEngine
        do {
            engine = try AudioEngine(output: .offline(sampleRate: sampleRate, channels: channels))
        } catch {
            throw .engine(error)
        }
        let sound = SoundSystem(engine: engine, catalogue: catalogue)
        let loaded: PreloadedSounds
        do {
            loaded = try await sound.bank.preload()
        } catch {
            throw .cancelled
        }
        defer { loaded.unload() }
        do {
            try loaded.throwIfFailed()
        } catch {
            throw .sounds(error)
        }
        return try render(seconds: seconds, seed: seed, sound: sound, rules: rules)
    }

    private static func render(
        seconds: Double, seed: UInt64, sound: SoundSystem, rules: Rules
    ) throws(AutoplayError) -> AutoplayRun {
        let audio = GameAudio(sound: sound, fieldWidth: rules.fieldWidth)
        var game = Game(rules: rules, seed: seed)
        var bot = Autopilot(seed: seed)
        let framesPerTick = sampleRate / rules.ticksPerSecond
        let ticks = Int((seconds * Double(rules.ticksPerSecond)).rounded(.up))
        var samples: [Float] = []
        samples.reserveCapacity(ticks * framesPerTick * channels)
        var cues: [AudioCue] = []
        for tick in 0..<ticks {
            let events = game.step(bot.input(for: game))
            cues += audio.handle(events, at: Double(tick) / Double(rules.ticksPerSecond))
            do {
                samples += try sound.engine.render(frames: framesPerTick).samples
            } catch {
                throw .engine(error)
            }
        }
        sound.engine.shutdown()
        let pcm = PCMAudio(sampleRate: sampleRate, channels: channels, samples: samples)
        return AutoplayRun(audio: pcm, summary: AutoplaySummary(cues: cues), game: game)
    }
}
