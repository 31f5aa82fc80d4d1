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

    /// A message naming each sound and file that failed.
    public var description: String {
        switch self {
        case .catalogue(let error): error.description
        case .engine(let name, let error): "sound \"\(name)\": \(error.description)"
        case .notLoaded(let name):
            "sound \"\(name)\" is not loaded: preload it first (SoundBank.preload or EffectStation.preload)"
        case .someFailed(let failures):
            "\(failures.count) sound(s) failed to load: "
                + failures.map(\.description).joined(separator: "; ")
        }
    }
}
