/// Fires one-shot effects by name: from any thread, many per frame, within each sound's limits.
///
/// A game scene keeps one station for the effects it uses; a menu that needs a single effect makes a
/// station of one sound and calls ``play(at:)``. The catalogue's `priority`, `maxInstances`, `steal`
/// and `coalesceMs` apply.
public final class EffectStation: Sendable {
    /// The bank the effects are loaded in.
    public let bank: SoundBank
    /// The effects this station plays; `nil` allows the whole catalogue.
    public let sounds: [String]?
    /// The musical grid effects played `at:` a ``MusicQuantize`` wait for (a ``SoundSystem``'s effects
    /// follow its music); `nil` for none.
    public let timeline: (any MusicTimeline)?
    private let held = Locked<PreloadedSounds?>(nil)

    /// Creates a station.
    /// - Parameters:
    ///   - bank: Where the effects are loaded.
    ///   - sounds: The catalogue names this station plays; `nil` for any.
    ///   - timeline: The grid for ``play(_:volume:pitch:pan:at:)-(String,_,_,_,MusicQuantize)``: a
    ///     ``MusicStation`` or a ``MusicClock``; `nil` for none.
    public init(bank: SoundBank, sounds: [String]? = nil, timeline: (any MusicTimeline)? = nil) {
        self.bank = bank
        self.sounds = sounds
        self.timeline = timeline
    }

    /// Loads the station's sounds (all effects of the catalogue when it has no list), keeping them
    /// until ``unload()``.
    /// - Returns: What was loaded, with any failures listed.
    /// - Throws: `CancellationError` when cancelled.
    @discardableResult
    public func preload() async throws(CancellationError) -> PreloadedSounds {
        let names = sounds ?? bank.catalogue.entries(ofKind: .effect).map(\.name)
        let loaded = try await bank.preload(names)
        held.withLock { previous in
            previous?.unload()
            previous = loaded
        }
        return loaded
    }

    /// Releases what ``preload()`` loaded.
    public func unload() {
        held.withLock { held in
            held?.unload()
            held = nil
        }
    }

    /// Fires an effect.
    ///
    /// Never waits: the name is looked up once (a dictionary read) and the start is handed to the
    /// mixing side through the engine's lock-free ring. For the cheapest trigger, resolve the name to
    /// a ``SoundID`` once (``SoundBank/id(of:)-(String)``) and call ``play(_:volume:pitch:pan:at:)-(SoundID,_,_,_,_)``.
    /// - Parameters:
    ///   - name: A loaded catalogue entry.
    ///   - volume: Multiplies the catalogue's volume.
    ///   - pitch: 1 as recorded.
    ///   - pan: -1 left, 0 centre, 1 right.
    ///   - time: When, on the engine clock; `nil` for now.
    /// - Returns: The voice's handle, or `nil` when the engine has fallen 4,096 triggers behind. A
    ///   start refused by the sound's limit or the voice pool still returns a handle, which is never
    ///   active, and a ``SoundEvent/refused(_:sound:time:)`` event says so.
    /// - Throws: A catalogue error for an unknown name; ``SoundLoadError/wrongKind(name:kind:expected:)``
    ///   for a music entry; ``SoundLoadError/notLoaded(name:)`` for a sound not preloaded or not on the
    ///   station's list; ``SoundLoadError/engine(name:_:)`` naming a volume, pitch or pan out of range.
    @discardableResult
    public func play(
        _ name: String, volume: Float = 1, pitch: Float = 1, pan: Float = 0, at time: Duration? = nil
    ) throws(SoundLoadError) -> VoiceHandle? {
        let id = try loadedID(of: name)
        do { return try play(id, volume: volume, pitch: pitch, pan: pan, at: time) } catch {
            throw .engine(name: name, error)
        }
    }

    /// Fires a loaded effect by id: no string, no lock, no allocation (see ``TriggerPort`` for a
    /// variant that is also safe in a signal handler).
    /// - Parameters:
    ///   - sound: An id from ``SoundBank/id(of:)-(String)``; any sound loaded in the bank.
    ///   - volume: Multiplies the catalogue's volume.
    ///   - pitch: 1 as recorded.
    ///   - pan: -1 left, 0 centre, 1 right.
    ///   - time: When, on the engine clock; `nil` for now.
    /// - Returns: As ``play(_:volume:pitch:pan:at:)-(String,_,_,_,Duration?)``; also `nil` when the sound is
    ///   not loaded (it may have been unloaded since its id was looked up).
    /// - Throws: ``AudioEngineError/invalidArgument(name:value:expected:)`` for a volume, pitch or pan
    ///   out of range (checked before anything is queued; only an error allocates).
    @discardableResult
    public func play(
        _ sound: SoundID, volume: Float = 1, pitch: Float = 1, pan: Float = 0, at time: Duration? = nil
    ) throws(AudioEngineError) -> VoiceHandle? {
        try fire(sound, PlayOptions(volume: volume, pitch: pitch, pan: pan), at: time)
    }

    /// Fires an effect at a position in the game's units: its pan and distance attenuation come from
    /// the engine's listener and ``AudioEngine/spatialLayout``, and follow
    /// ``AudioEngine/setPosition(_:for:glide:)`` while it plays.
    /// - Parameters:
    ///   - name: A loaded catalogue entry.
    ///   - position: Where it is.
    ///   - volume: Multiplies the catalogue's volume.
    ///   - pitch: 1 as recorded.
    ///   - spatialize: For a stereo sound, downmix it to a point instead of keeping its width.
    ///   - time: When, on the engine clock; `nil` for now.
    /// - Returns: As ``play(_:volume:pitch:pan:at:)-(String,_,_,_,Duration?)``.
    /// - Throws: As that, and ``SoundLoadError/engine(name:_:)`` naming a coordinate that is not a
    ///   finite number.
    @discardableResult
    public func play(
        _ name: String, position: SoundPosition, volume: Float = 1, pitch: Float = 1,
        spatialize: Bool = false,
        at time: Duration? = nil
    ) throws(SoundLoadError) -> VoiceHandle? {
        let id = try loadedID(of: name)
        do {
            return try play(
                id, position: position, volume: volume, pitch: pitch, spatialize: spatialize, at: time)
        } catch {
            throw .engine(name: name, error)
        }
    }

    /// Fires a loaded effect by id at a position (no string, no lock, no allocation).
    /// - Parameters:
    ///   - sound: An id from ``SoundBank/id(of:)-(String)``.
    ///   - position: Where it is.
    ///   - volume: Multiplies the catalogue's volume.
    ///   - pitch: 1 as recorded.
    ///   - spatialize: For a stereo sound, downmix it to a point.
    ///   - time: When, on the engine clock; `nil` for now.
    /// - Returns: As ``play(_:volume:pitch:pan:at:)-(SoundID,_,_,_,_)``.
    /// - Throws: As that, and for a coordinate that is not a finite number.
    @discardableResult
    public func play(
        _ sound: SoundID, position: SoundPosition, volume: Float = 1, pitch: Float = 1,
        spatialize: Bool = false,
        at time: Duration? = nil
    ) throws(AudioEngineError) -> VoiceHandle? {
        try fire(
            sound, PlayOptions(volume: volume, pitch: pitch, position: position, spatialize: spatialize),
            at: time)
    }

    /// Fires an effect named by a typed resource.
    /// - Parameters:
    ///   - effect: A ``SoundResource`` naming a loaded effect.
    ///   - volume: Multiplies the catalogue's volume.
    ///   - pitch: 1 as recorded.
    ///   - pan: -1 left, 0 centre, 1 right.
    ///   - time: When, on the engine clock; `nil` for now.
    /// - Returns: The voice, or `nil` when refused.
    /// - Throws: As ``play(_:volume:pitch:pan:at:)``.
    @discardableResult
    public func play(
        _ effect: some SoundResource, volume: Float = 1, pitch: Float = 1, pan: Float = 0,
        at time: Duration? = nil
    ) throws(SoundLoadError) -> VoiceHandle? {
        try play(effect.catalogueName as String, volume: volume, pitch: pitch, pan: pan, at: time)
    }

    /// Fires the station's only sound: a single-effect station.
    /// - Parameter time: When, on the engine clock; `nil` for now.
    /// - Returns: The voice, or `nil` when refused.
    /// - Throws: ``SoundLoadError/notSingleSound(sounds:)`` when the station does not hold exactly one
    ///   sound, or as ``play(_:volume:pitch:pan:at:)-(String,_,_,_,Duration?)``.
    @discardableResult
    public func play(at time: Duration? = nil) throws(SoundLoadError) -> VoiceHandle? {
        guard let sounds, sounds.count == 1 else { throw .notSingleSound(sounds: sounds) }
        return try play(sounds[0] as String, at: time)
    }

    /// Checks `options` and writes the trigger for a loaded `sound` into the ring, with the sound's
    /// catalogue defaults; `nil` when the sound is not loaded (any more).
    private func fire(_ sound: SoundID, _ options: PlayOptions, at time: Duration?) throws(AudioEngineError)
        -> VoiceHandle?
    {
        try options.check()
        let engine = bank.engine
        guard engine.ring.isReady(sound) else { return nil }
        return engine.trigger(sound, options: options, at: time, soundDefaults: true)
    }

    /// The id of `name`, checked: in the catalogue, an effect (or voice) entry, on the station's list,
    /// and loaded with its samples in memory.
    private func loadedID(of name: String) throws(SoundLoadError) -> SoundID {
        guard let found = bank.lookup(name) else {
            let entry: SoundEntry
            do { entry = try bank.catalogue.entry(named: name) } catch { throw .catalogue(error) }
            if entry.kind == .music { throw .wrongKind(name: name, kind: .music, expected: .effect) }
            throw .notLoaded(name: name)
        }
        // A streamed entry has no buffer: it is music, loaded for the music station.
        if found.entry.kind == .music || found.buffer == nil {
            throw .wrongKind(name: name, kind: found.entry.kind, expected: .effect)
        }
        guard sounds?.contains(name) ?? true else { throw .notLoaded(name: name) }
        return found.id
    }

    /// Stops every effect, at once or fading out (music and voice notes go on).
    /// - Parameter fade: How long to fade out; `.zero` stops at once.
    public func stopAll(fade: Duration = .zero) {
        bank.engine.stopAll(on: .effects, fade: fade)
    }
}
