/// Why a sound could not be loaded into a ``SoundBank``.
public enum SoundLoadError: Error, CustomStringConvertible, Equatable {
    /// The catalogue does not name it, or its file is missing or does not decode.
    case catalogue(CatalogueError)
    /// The device refused its samples.
    case engine(name: String, AudioEngineError)
    /// The sound is in the catalogue but was not loaded: preload it before the scene that plays it,
    /// so nothing is ever decoded on the game loop's thread.
    case notLoaded(name: String)
    /// Some sounds of a preload failed (see ``PreloadedSounds/throwIfFailed()``).
    case someFailed(failures: [SoundLoadError])
    /// The entry is of another kind than the call plays: a music entry given to an effect station,
    /// or an effect given to the music station.
    case wrongKind(name: String, kind: SoundKind, expected: SoundKind)
    /// ``EffectStation/play(at:)`` on a station that does not hold exactly one sound.
    case notSingleSound(sounds: [String]?)

    /// A message naming each sound and file that failed.
    public var description: String {
        switch self {
        case .catalogue(let error): error.description
        case .engine(let name, let error): "sound \"\(name)\": \(error.description)"
        case .notLoaded(let name):
            "sound \"\(name)\" is not loaded: preload it first (SoundBank.preload or EffectStation.preload)"
        case .wrongKind(let name, let kind, let expected):
            "sound \"\(name)\" is \(kind.withArticle) entry, not \(expected.withArticle): play it with "
                + (kind == .music ? "the music station (music.play)" : "an effect station (effects.play)")
        case .notSingleSound(let sounds):
            "play(at:) fires a station's only sound, but this station "
                + (sounds.map { "holds \($0.count): \($0.joined(separator: ", "))" } ?? "plays any sound")
                + "; name the sound, or make EffectStation(bank:sounds:) with one name"
        case .someFailed(let failures):
            "\(failures.count) sound(s) failed to load: "
                + failures.map(\.description).joined(separator: "; ")
        }
    }
}

extension SoundKind {
    /// "a music", "an effect", "a voice": the kind with its article, for messages.
    var withArticle: String {
        let first = rawValue.first.map { "aeiou".contains($0) } ?? false
        return (first ? "an " : "a ") + rawValue
    }
}
