/// Everything a game needs for sound in one place: the engine, the catalogue, the loaded sounds,
/// the music station and an effect station for the whole catalogue.
///
/// ```swift
/// let sound = try SoundSystem(output: .device(), assets: .directory("Assets"))
/// try await sound.bank.preload()
/// try sound.music.play("main")
/// try sound.effects.play("reward")
/// ```
public final class SoundSystem: Sendable {
    /// The mixer and its output.
    public let engine: AudioEngine
    /// The game's sounds by name (the bank's: a watched `catalogue.json` that was edited is read again).
    public var catalogue: Catalogue { bank.catalogue }
    /// The loaded sounds, shared by the stations.
    public let bank: SoundBank
    /// Background music.
    public let music: MusicStation
    /// Effects from the whole catalogue.
    public let effects: EffectStation
    private let clock = Locked<MusicClock?>(nil)

    /// The cue list's clock, once a `tempo` cue has started it: effects cued `at=beat|bar` land on its
    /// grid from then on.
    public var cueClock: MusicClock? { clock.withLock { $0 } }

    /// Wraps an engine and a catalogue; decoded sounds are kept between runs as
    /// ``SoundBank/init(engine:catalogue:)`` says.
    /// - Parameters:
    ///   - engine: An open engine.
    ///   - catalogue: The game's sounds.
    public convenience init(engine: AudioEngine, catalogue: Catalogue) {
        self.init(engine: engine, catalogue: catalogue, pcmCache: .standard)
    }

    /// Wraps an engine and a catalogue with a decoded-sound cache of its own.
    /// - Parameters:
    ///   - engine: An open engine.
    ///   - catalogue: The game's sounds.
    ///   - pcmCache: Where decoded sounds are kept between runs; `nil` decodes every time.
    package init(engine: AudioEngine, catalogue: Catalogue, pcmCache: PCMCache?) {
        self.engine = engine
        bank = SoundBank(engine: engine, catalogue: catalogue, pcmCache: pcmCache)
        music = MusicStation(bank: bank)
        effects = EffectStation(bank: bank, timeline: music)
    }

    /// A sound system whose bank shares decoded files with other banks' through `shares` (a remote
    /// player's, which makes one system per catalogue it receives).
    package init(engine: AudioEngine, catalogue: Catalogue, pcmCache: PCMCache?, shares: DecodedShares) {
        self.engine = engine
        bank = SoundBank(engine: engine, catalogue: catalogue, pcmCache: pcmCache, shares: shares)
        music = MusicStation(bank: bank)
        effects = EffectStation(bank: bank, timeline: music)
    }

    /// Opens an output and reads the catalogue at `assets`.
    /// - Parameters:
    ///   - output: Where the sound goes.
    ///   - assets: The folder (or bundle) holding `catalogue.json`.
    /// - Throws: ``SoundSystemError/catalogue(_:)`` when the catalogue cannot be read (nothing is
    ///   opened), ``SoundSystemError/output(_:)`` when the output cannot be opened.
    public convenience init(output: AudioOutput, assets: AssetLocation) throws(SoundSystemError) {
        let catalogue: Catalogue
        do { catalogue = try Catalogue(location: assets) } catch { throw .catalogue(error) }
        let engine: AudioEngine
        do { engine = try AudioEngine(output: output) } catch { throw .output(error) }
        self.init(engine: engine, catalogue: catalogue)
    }

    /// Carries out one cue of a cue list (what `soundstation render` and `play` do per event), on the
    /// music's grid when the cue says `at=` (an effect's on the ``cueClock``'s grid once it runs).
    /// - Parameter cue: The cue.
    /// - Throws: ``MusicError`` for a sound that is unknown or not loaded, or a grid point the music
    ///   does not have.
    public func perform(_ cue: SoundCue) throws(MusicError) {
        switch (cue.action, cue.quantize) {
        case (.effect(let name), let point) where point != .now:
            let time = try effectTime(of: point)
            do { try effects.play(name, at: time) } catch { throw .load(error) }
        case (.music(let name, let transition), let point) where point != .now:
            try music.play(name, transition: transition, at: point)
        case (.placedEffect(let name, let placement), let point) where point != .now:
            let time = try effectTime(of: point)
            do {
                switch placement {
                case .pan(let pan): try effects.play(name, pan: pan, at: time)
                case .position(let position): try effects.play(name, position: position, at: time)
                }
            } catch {
                throw .load(error)
            }
        default:
            do { try perform(cue.action) } catch { throw .load(error) }
        }
    }

    /// When an effect cued on `point` starts: on the cue clock's grid when it runs, else the music's.
    private func effectTime(of point: MusicQuantize) throws(MusicError) -> Duration? {
        if let clock = cueClock { return try clock.time(of: point) }
        return try effects.gridTime(of: point)
    }

    /// The intensity and tempo cues: the music's layers, and the cue clock (started by the first).
    private func perform(tempo bpm: Double, over length: Duration, easing: Easing) throws(SoundLoadError) {
        let tween = Tween(length, easing: easing)
        do throws(MusicError) {
            if let running = cueClock { return try running.setTempo(bpm, tween: tween) }
            let started = try MusicClock(bpm: bpm, name: "cues")
            clock.withLock { $0 = started }
            started.start(on: engine)
        } catch {
            throw .engine(
                name: "tempo", .invalidArgument(name: "tempo", value: "\(bpm)", expected: error.description))
        }
    }

    /// Carries out one cue of a cue list (what `soundstation render` and `play` do per event).
    /// - Parameter action: The cue's action.
    /// - Throws: ``SoundLoadError`` for a sound that is unknown or not loaded.
    public func perform(_ action: SoundCue.Action) throws(SoundLoadError) {
        switch action {
        case .effect(let name): try effects.play(name)
        case .music(let name, let transition): try music.play(name, transition: transition)
        case .stopMusic(let fade): music.stop(fade: fade)
        case .pause: engine.pauseAll()
        case .resume: engine.resumeAll()
        case .volume(let bus, let gain):
            do throws(AudioEngineError) { try engine.setVolume(gain, for: bus) } catch {
                throw .engine(name: "\(bus.rawValue) volume", error)
            }
        case .placedEffect(let name, .pan(let pan)): try effects.play(name, pan: pan)
        case .placedEffect(let name, .position(let position)): try effects.play(name, position: position)
        case .listener(let position):
            do throws(AudioEngineError) { try engine.setListener(position) } catch {
                throw .engine(name: "listener", error)
            }
        case .filter(let bus, let filter):
            do throws(AudioEngineError) {
                if case .lowpass(let hertz) = filter {
                    try SoundFilter.checkCutoff(hertz, sampleRate: engine.sampleRate)
                }
                if case .highpass(let hertz) = filter {
                    try SoundFilter.checkCutoff(hertz, sampleRate: engine.sampleRate)
                }
                try engine.setFilter(filter.filter, for: bus)
            } catch { throw .engine(name: "\(bus.rawValue) filter", error) }
        case .reverb(let bus, let preset):
            do throws(AudioEngineError) { try engine.setReverb(preset, for: bus) } catch {
                throw .engine(name: "\(bus.rawValue) reverb", error)
            }
        case .intensity(let value, let length, let easing):
            do throws(MusicError) {
                try music.setIntensity(value, tween: Tween(length, easing: easing))
            } catch {
                throw .engine(
                    name: "intensity",
                    .invalidArgument(name: "intensity", value: "\(value)", expected: error.description))
            }
        case .tempo(let bpm, let length, let easing):
            try perform(tempo: bpm, over: length, easing: easing)
        }
    }
}

/// Why ``SoundSystem/init(output:assets:)`` could not make a sound system.
public enum SoundSystemError: Error, CustomStringConvertible, Equatable {
    /// The catalogue could not be read.
    case catalogue(CatalogueError)
    /// The output could not be opened.
    case output(AudioEngineError)

    /// The underlying error's message, which names the file, key or device.
    public var description: String {
        switch self {
        case .catalogue(let error): error.description
        case .output(let error): error.description
        }
    }
}
