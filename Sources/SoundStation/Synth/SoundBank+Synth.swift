extension SoundBank {
    /// Makes a synthesised sound that no manifest names and loads it, so it plays by `name` or by the
    /// returned id like a catalogue effect (an effect with the catalogue's defaults).
    ///
    /// Rendering takes about a millisecond per 10 ms of sound on the calling thread (an sfxr effect is
    /// at most about 6.8 s long); call it while loading, not in the game loop.
    /// - Parameters:
    ///   - name: The name to play it by; no catalogue entry may have it.
    ///   - sound: What to render, e.g. `.preset(.laser, seed: 3)`.
    /// - Returns: The sound's id.
    /// - Throws: ``SoundLoadError/catalogue(_:)`` with ``CatalogueError/duplicateName(path:name:)`` for a
    ///   name in use, or naming the bad parameter.
    @discardableResult
    public func synth(_ name: String, _ sound: SynthSound) throws(SoundLoadError) -> SoundID {
        guard EntryReader.isUsableName(name) else {
            throw .catalogue(
                .invalidValue(
                    path: "synth", entry: name, key: "name", value: "\"\(name)\"",
                    expected: "a non-empty name without leading or trailing spaces"))
        }
        do { try sound.parameters.validate() } catch {
            throw .catalogue(.undecodable(name: name, path: "synth", reason: error.description))
        }
        guard (0...12).contains(sound.variation) else {
            throw .catalogue(
                .invalidValue(
                    path: "synth", entry: name, key: "variation", value: "\(sound.variation)",
                    expected: "semitones from 0 to 12"))
        }
        var entry = SoundEntry(name: name, path: "", resolvedPath: "", kind: .effect)
        entry.synth = sound
        let added = currentCatalogue.withLock { catalogue -> Bool in
            guard let larger = catalogue.adding(entry) else { return false }
            catalogue = larger
            return true
        }
        guard added else { throw .catalogue(.duplicateName(path: "synth", name: name)) }
        do {
            try load(name)
        } catch {
            currentCatalogue.withLock { $0 = $0.removing(name) }
            throw error
        }
        engine.remoteLink.withLock { $0 }?.offerSynth(name: name, sound: sound)
        return try id(of: name)
    }
}

extension SoundSystem {
    /// Makes and loads a synthesised effect: ``SoundBank/synth(_:_:)``.
    /// - Parameters:
    ///   - name: The name to play it by; no catalogue entry may have it.
    ///   - sound: What to render, e.g. `.preset(.laser, seed: 3)`.
    /// - Returns: The sound's id, for ``EffectStation`` or the trigger port.
    /// - Throws: As ``SoundBank/synth(_:_:)``.
    @discardableResult
    public func synth(_ name: String, _ sound: SynthSound) throws(SoundLoadError) -> SoundID {
        try bank.synth(name, sound)
    }
}
