extension SoundBank {
    /// Makes a file a music track that no manifest names, streamed from the file while it plays, and
    /// loads it: ``MusicStation`` then plays it by `name` like a catalogue track (a game that brings
    /// its own songs, a port of a game that played music from paths).
    ///
    /// Loading reads only the file's headers. The track has no tempo, so it switches only ``MusicQuantize/now``.
    /// - Parameters:
    ///   - name: The name to play it by; no catalogue entry may have it.
    ///   - path: The file, absolute or relative to the working directory; any format the engine reads.
    ///   - loop: Whether it starts again at its end, until stopped or switched.
    /// - Returns: What the decoder said of the file that loaded anyway.
    /// - Throws: ``SoundLoadError/catalogue(_:)`` with ``CatalogueError/duplicateName(path:name:)``
    ///   for a name in use, or a load error naming the file when it does not open as audio.
    @discardableResult
    public func loadMusic(named name: String, fileAt path: String, loop: Bool = true) throws(SoundLoadError)
        -> [SoundLoadWarning]
    {
        let resolved = CatalogueFiles.absolute(path)
        // Checked before the entry is added, so a file that does not open leaves the name free.
        guard CatalogueFiles.kind(of: resolved) == .regularFile else {
            throw .catalogue(.fileMissing(name: name, path: resolved))
        }
        do { _ = try AudioDecoder.info(ofFileAt: resolved) } catch {
            throw .catalogue(.undecodable(name: name, path: resolved, reason: error.description))
        }
        let entry = SoundEntry(
            name: name, path: path, resolvedPath: resolved, kind: .music, loop: loop, stream: true)
        let added = currentCatalogue.withLock { catalogue -> Bool in
            guard let larger = catalogue.adding(entry) else { return false }
            catalogue = larger
            return true
        }
        guard added else {
            throw .catalogue(.duplicateName(path: resolved, name: name))
        }
        return try load(name)
    }
}
