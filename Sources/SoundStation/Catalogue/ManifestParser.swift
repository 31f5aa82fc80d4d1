/// Turns manifest bytes into checked sound entries.
///
/// Checks run in the order a person fixes a manifest: JSON syntax, then shape and keys,
/// then each value, then file locations, so the first error reported is the most basic one.
struct ManifestParser {
    /// How the manifest is named in messages.
    let manifestPath: String
    /// The real (symlink-free) absolute assets root that sound paths are relative to.
    let root: String

    /// Parses and checks the whole manifest, returning entries in manifest order.
    func entries(from json: [UInt8]) throws(CatalogueError) -> [SoundEntry] {
        let document: ManifestJSON.Value
        do {
            document = try ManifestJSON.parse(json)
        } catch {
            throw .invalidJSON(path: manifestPath, reason: error.description)
        }
        guard case .object(let top) = document else {
            throw .invalidJSON(
                path: manifestPath,
                reason: "the top level is \(document.brief), expected an object like {\"sounds\": [...]}")
        }
        for member in top.members where !ManifestKeys.topLevel.contains(member.key) {
            throw .unknownKey(path: manifestPath, entry: nil, key: member.key)
        }
        guard let sounds = top["sounds"] else {
            throw .missingKey(path: manifestPath, entry: nil, key: "sounds")
        }
        guard case .array(let items) = sounds else {
            throw .invalidJSON(
                path: manifestPath,
                reason: "\"sounds\" is \(sounds.brief), expected an array of sound objects")
        }
        var entries: [SoundEntry] = []
        var seen: Set<String> = []
        for (position, item) in items.enumerated() {
            guard case .object(let object) = item else {
                throw .invalidJSON(
                    path: manifestPath,
                    reason:
                        "sounds[\(position)] is \(item.brief), expected an object with name, path and kind")
            }
            let entry = try EntryReader(object: object, position: position, manifestPath: manifestPath)
                .entry(root: root)
            guard seen.insert(entry.name).inserted else {
                throw .duplicateName(path: manifestPath, name: entry.name)
            }
            entries.append(entry)
        }
        return entries
    }
}
