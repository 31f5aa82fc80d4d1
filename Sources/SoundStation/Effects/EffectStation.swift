import Synchronization

/// Fires one-shot effects by name: from any thread, many per frame, within each sound's limits.
///
/// A game scene keeps one station for the effects it uses (the seed's game station); a menu that
/// needs a single effect makes a station of one sound and calls ``play(at:)`` (the seed's single-effect
/// station). The catalogue's `priority`, `maxInstances`, `steal` and `coalesceMs` apply.
public final class EffectStation: Sendable {
    /// The bank the effects are loaded in.
    public let bank: SoundBank
    /// The effects this station plays; `nil` allows the whole catalogue.
    public let sounds: [String]?
    private let held = Mutex<PreloadedSounds?>(nil)

    /// Creates a station.
    /// - Parameters:
    ///   - bank: Where the effects are loaded.
    ///   - sounds: The catalogue names this station plays; `nil` for any.
    public init(bank: SoundBank, sounds: [String]? = nil) {
        self.bank = bank
        self.sounds = sounds
    }

    /// Loads the station's sounds (all effects of the catalogue when it has no list), keeping them
    /// until ``unload()``.
    /// - Returns: What was loaded, with any failures listed.
    /// - Throws: `CancellationError` when cancelled.
    @discardableResult
    public func preload() async throws -> PreloadedSounds {
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
    /// - Parameters:
    ///   - name: A loaded catalogue entry.
    ///   - volume: Multiplies the catalogue's volume.
    ///   - pitch: 1 as recorded.
    ///   - pan: -1 left, 0 centre, 1 right.
    ///   - time: When, on the engine clock; `nil` for now.
    /// - Returns: The voice, or `nil` when the sound's limit or the voice pool refused it.
    /// - Throws: ``SoundLoadError/notLoaded(name:)`` or a catalogue error for an unknown name, or when
    ///   the station's list does not include it.
    @discardableResult
    public func play(
        _ name: String, volume: Float = 1, pitch: Float = 1, pan: Float = 0, at time: Double? = nil
    ) throws(SoundLoadError) -> VoiceHandle? {
        guard let (entry, buffer) = bank.lookup(name), let buffer, sounds?.contains(name) ?? true else {
            if bank.catalogue[name] == nil {
                do { _ = try bank.catalogue.entry(named: name) } catch { throw .catalogue(error) }
            }
            throw .notLoaded(name: name)
        }
        let engine = bank.engine
        let options = PlayOptions(
            volume: entry.volume * volume, pitch: pitch, pan: pan, priority: entry.priority,
            bus: entry.kind == .voice ? .voice : .effects)
        var request = VoiceRequest(name: name, buffer: buffer, options: options)
        request.limit = InstanceLimit(
            maxInstances: entry.maxInstances, steal: entry.steal,
            coalesceFrames: Int64(entry.coalesceMilliseconds / 1000 * Double(engine.sampleRate)))
        return engine.start(request, at: time)
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
        at time: Double? = nil
    ) throws(SoundLoadError) -> VoiceHandle? {
        try play(effect.catalogueName, volume: volume, pitch: pitch, pan: pan, at: time)
    }

    /// Fires the station's only sound: the seed's single-effect station.
    /// - Parameter time: When, on the engine clock; `nil` for now.
    /// - Returns: The voice, or `nil` when refused.
    /// - Throws: ``SoundLoadError/notLoaded(name:)`` when the station does not hold exactly one sound.
    @discardableResult
    public func play(at time: Double? = nil) throws(SoundLoadError) -> VoiceHandle? {
        guard let sounds, sounds.count == 1 else { throw .notLoaded(name: "(a station of one sound)") }
        return try play(sounds[0], at: time)
    }

    /// Stops every effect, at once or fading out (music and voice notes go on).
    /// - Parameter fade: Seconds to fade out.
    public func stopAll(fade: Double = 0) {
        bank.engine.stopAll(on: .effects, fade: fade)
    }
}
