/// Everything that can go wrong while finding, reading or checking a sound catalogue.
///
/// Each case renders as a single line that names the manifest and/or the sound involved and
/// says how to fix it, because these messages usually end up in a terminal or a crash log
/// read by someone who did not write the manifest.
///
/// Where a case carries `entry`, it is the sound's name, or `#n` (its 0-based position in
/// `sounds`) when the entry has no usable name yet.
public enum CatalogueError: Error, CustomStringConvertible, Equatable {
    /// The manifest file could not be read at all (missing, a directory, no permission).
    case manifestUnreadable(path: String, reason: String)
    /// The manifest is not well-formed JSON, or its top level has the wrong shape.
    case invalidJSON(path: String, reason: String)
    /// A key the catalogue does not know; `entry` is nil for the top-level object.
    case unknownKey(path: String, entry: String?, key: String)
    /// A required key is absent; `entry` is nil for the top-level object.
    case missingKey(path: String, entry: String?, key: String)
    /// A key holds a value of the wrong type or outside its allowed range.
    case invalidValue(path: String, entry: String, key: String, value: String, expected: String)
    /// Two sounds share a name, so lookups by name would be ambiguous.
    case duplicateName(path: String, name: String)
    /// A sound's path could reach outside the assets root (`..`, absolute, or via a symlink).
    case pathEscapesRoot(name: String, path: String, reason: String)
    /// A sound's file does not exist; `path` is the absolute location that was checked.
    case fileMissing(name: String, path: String)
    /// A sound's file exists but cannot be decoded; raised by verification, never by loading.
    case undecodable(name: String, path: String, reason: String)
    /// A music entry's tempo or markers do not fit its file: a loop body that is not a whole number
    /// of bars, or a marker or downbeat past the end (found when the track is loaded).
    case timingMismatch(name: String, key: String, reason: String)
    /// A switch or start asked for a marker the track's entry does not have.
    case unknownMarker(name: String, marker: String, known: [String])
    /// A lookup named a sound the catalogue does not contain.
    case unknownSound(name: String, suggestions: [String])
    /// No assets root was found; `searched` lists every place that was tried, in order.
    case assetsNotFound(searched: [String])

    /// A one-line message that says where the problem is and what to do about it.
    public var description: String {
        switch self {
        case .manifestUnreadable(let path, let reason):
            return "\(path): cannot read the manifest (\(reason)); check that the file exists and is readable"
        case .invalidJSON(let path, let reason):
            return "\(path): not a valid catalogue manifest: \(reason)"
        case .unknownKey(let path, let entry, let key):
            let allowed = entry == nil ? ManifestKeys.topLevel : ManifestKeys.entry
            var message = "\(path): \(Self.place(entry)): unknown key \"\(key)\""
            if let guess = NameSuggestions.closest(to: key, among: allowed).first {
                message += "; did you mean \"\(guess)\"?"
            }
            return message + " (allowed: \(allowed.joined(separator: ", ")))"
        case .missingKey(let path, let entry, let key):
            return "\(path): \(Self.place(entry)): missing required key \"\(key)\"; add it"
        case .invalidValue(let path, let entry, let key, let value, let expected):
            return "\(path): \(Self.place(entry)): \"\(key)\" is \(value), expected \(expected)"
        case .duplicateName(let path, let name):
            return "\(path): more than one sound is named \"\(name)\"; names must be unique, rename one"
        case .pathEscapesRoot(let name, let path, let reason):
            return "sound \"\(name)\": path \"\(path)\" is refused: \(reason); "
                + "keep every sound file inside the assets folder"
        case .fileMissing(let name, let path):
            return "sound \"\(name)\": file \(path) does not exist; "
                + "add the file or fix \"path\" in the manifest"
        case .undecodable(let name, let path, let reason):
            return "sound \"\(name)\": file \(path) cannot be decoded (\(reason)); "
                + "re-export it as WAV or Ogg Vorbis"
        case .timingMismatch(let name, let key, let reason):
            return "sound \"\(name)\": \"\(key)\" does not fit the file: \(reason)"
        case .unknownMarker(let name, let marker, let known):
            let list =
                known.isEmpty
                ? "it has none; add \"markers\": {\"\(marker)\": SECONDS} to its entry"
                : "its markers are " + known.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
            return "sound \"\(name)\" has no marker \"\(marker)\": \(list)"
        case .unknownSound(let name, let suggestions):
            let hint =
                suggestions.isEmpty
                ? "add it to the manifest"
                : "did you mean " + suggestions.map { "\"\($0)\"" }.joined(separator: ", ") + "?"
            return "no sound named \"\(name)\" in the catalogue; \(hint)"
        case .assetsNotFound(let searched):
            return "no assets folder with \(Catalogue.manifestName) found (searched: "
                + searched.joined(separator: ", ")
                + "); set SOUNDSTATION_ASSETS to the folder that holds \(Catalogue.manifestName)"
        }
    }

    /// Phrases an entry reference the way a reader looks for it in the manifest.
    private static func place(_ entry: String?) -> String {
        guard let entry else { return "top level" }
        if entry.hasPrefix("#") { return "sound \(entry)" }
        return "sound \"\(entry)\""
    }
}
