extension SoundEvent {
    /// One line for a report of ``SoundBank/watch(settle:)``, for a tool or a game's notice area to
    /// show as it is; `nil` for every other event.
    ///
    /// ```text
    /// reloaded "laser" from sfx/laser.wav
    /// reload of sfx/laser.wav failed: ...; the version loaded before keeps playing
    /// reloaded catalogue.json: added "boss"; removed "old-theme"
    /// ```
    public var reloadMessage: String? {
        switch self {
        case .reloaded(let sound, let file, let warnings):
            return "reloaded \"\(sound)\" from \(file)"
                + warnings.map { "; warning: \($0.description)" }.joined()
        case .reloadFailed(let file, let error):
            return "reload of \(file) failed: \(error.description); the version loaded before keeps playing"
        case .catalogueReloaded(let added, let removed):
            let quoted = { (names: [String]) in names.map { "\"\($0)\"" }.joined(separator: ", ") }
            var parts: [String] = []
            if !added.isEmpty { parts.append("added " + quoted(added)) }
            if !removed.isEmpty {
                parts.append("removed " + quoted(removed) + " (loaded ones play on until unloaded)")
            }
            return "reloaded \(Catalogue.manifestName)"
                + (parts.isEmpty ? "" : ": " + parts.joined(separator: "; "))
        default:
            return nil
        }
    }
}
