/// The keys a manifest may use, in the order the documentation lists them.
///
/// Unknown keys are errors rather than ignored because a misspelt key ("volumn") would
/// otherwise silently fall back to a default and be very hard to spot by ear.
enum ManifestKeys {
    /// Keys allowed in the top-level object.
    static let topLevel = ["sounds"]
    /// Keys allowed in each sound entry.
    static let entry = [
        "name", "path", "kind", "volume", "loop", "priority", "maxInstances", "steal", "stream",
        "coalesceMs", "loopStart", "loopEnd", "channels", "strict", "bpm", "beatsPerBar", "downbeat",
        "markers", "stems", "duckMusic", "synth", "track", "soundfont",
    ]
    /// Keys every sound entry must have (`path` unless it has `synth`).
    static let required = ["name", "kind"]
}
