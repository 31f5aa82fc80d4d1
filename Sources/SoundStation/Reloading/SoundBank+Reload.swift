import Glibc

extension SoundBank {
    /// Watches the assets folder and loads edited files again while the game runs: for development,
    /// off unless asked for.
    ///
    /// - A loaded sound whose file changes is decoded again (on the watch's own thread) and swapped in
    ///   for its next start: it keeps its ``SoundID`` and its name, and voices already playing it
    ///   finish with the version they started with. A streamed track opens the new file at its next
    ///   start. ``SoundEvent/reloaded(sound:file:warnings:)`` reports it.
    /// - An edited `catalogue.json` is read again: changed settings of loaded sounds (volume, limits,
    ///   loop points, tempo...) apply from their next start, new entries can be loaded, and
    ///   ``SoundEvent/catalogueReloaded(added:removed:)`` names what came and went (a removed sound that
    ///   is loaded keeps playing as it was until it is unloaded).
    /// - A bad edit (a file that does not decode, a manifest that does not parse, settings its file
    ///   cannot satisfy) is reported by ``SoundEvent/reloadFailed(file:error:)`` with the error loading
    ///   would have thrown, and the version loaded before keeps playing.
    ///
    /// Editors save by writing a new file and renaming it over the old one, so the folders are watched,
    /// not the files: the assets root and every folder an entry's file is in (symlinked files are not
    /// followed). A burst of changes to one file is acted on once it has been quiet for `settle`.
    ///
    /// ```swift
    /// let watch = try sound.bank.watch()  // keep it; watch.cancel() stops
    /// sound.engine.onEvent { event in
    ///     if case .reloadFailed(let file, let error) = event { print("\(file): \(error)") }
    /// }
    /// ```
    /// - Parameter settle: How long a file must be left alone before it is loaded again.
    /// - Returns: The running watch; it stops when cancelled or released, or when the bank is freed.
    /// - Throws: ``AssetWatchError`` when the kernel refuses the watch (too many watches or instances).
    public func watch(settle: Duration = .milliseconds(100)) throws(AssetWatchError) -> AssetWatch {
        try AssetWatch(bank: self, settle: settle)
    }

    /// The folders to watch: the assets root and the folder of every entry's file and stems.
    func watchedFolders() -> Set<String> {
        let catalogue = self.catalogue
        var folders: Set<String> = [catalogue.root]
        // A synthesised entry has no file: it changes with catalogue.json only.
        for entry in catalogue.entries where entry.synth == nil {
            for path in [entry.resolvedPath] + entry.stems.map(\.resolvedPath) {
                folders.insert(Self.watchPath(path).folder)
            }
        }
        return folders
    }

    /// `path` as the watch reports it: its folder with symlinks resolved, and its file name.
    static func watchPath(_ path: String) -> (folder: String, full: String) {
        let folder = CatalogueFiles.directory(of: path)
        let real = CatalogueFiles.realPath(folder) ?? folder
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
        return (real, real == "/" ? "/" + name : real + "/" + name)
    }

    /// Acts on settled changes: `catalogue.json` first (its changed entries load their files again),
    /// then every loaded sound whose file or stem is among `paths`.
    /// - Parameters:
    ///   - paths: Changed files, as ``Inotify`` reports them.
    ///   - everything: Changes were lost: read the catalogue and every loaded sound again.
    /// - Returns: The reports to send.
    func reloadChanged(_ paths: Set<String>, everything: Bool) -> [SoundEvent] {
        var events: [SoundEvent] = []
        var done: Set<String> = []
        let manifest = Self.watchPath(catalogue.root + "/" + Catalogue.manifestName).full
        if everything || paths.contains(manifest) { events += reloadCatalogue(done: &done) }
        let loaded = table.withLock { $0.loaded.values.map(\.entry) }.sorted { $0.name < $1.name }
        for entry in loaded where !done.contains(entry.name) {
            let files = entry.synth != nil ? [] : [entry.resolvedPath] + entry.stems.map(\.resolvedPath)
            guard everything || files.contains(where: { paths.contains(Self.watchPath($0).full) }) else {
                continue
            }
            // A sound the catalogue no longer names still reloads its file, under its loaded settings.
            events += reload(entry.name, as: catalogue[entry.name] ?? entry)
        }
        return events
    }

    /// Reads `catalogue.json` again and reloads the loaded sounds whose entries changed (added to
    /// `done`). A manifest that does not load leaves everything as it was.
    private func reloadCatalogue(done: inout Set<String>) -> [SoundEvent] {
        let old = catalogue
        let new: Catalogue
        do {
            new = try Catalogue(manifestAt: old.root + "/" + Catalogue.manifestName, root: old.root)
        } catch {
            return [.reloadFailed(file: Catalogue.manifestName, error: .catalogue(error))]
        }
        currentCatalogue.withLock { $0 = new }
        let oldNames = Set(old.entries.map(\.name))
        let newNames = Set(new.entries.map(\.name))
        var events: [SoundEvent] = [
            .catalogueReloaded(
                added: new.entries.map(\.name).filter { !oldNames.contains($0) },
                removed: old.entries.map(\.name).filter { !newNames.contains($0) })
        ]
        let loaded = table.withLock { $0.loaded.values.map(\.entry) }.sorted { $0.name < $1.name }
        for entry in loaded {
            guard let changed = new[entry.name], changed != entry else { continue }
            done.insert(entry.name)
            events += reload(entry.name, as: changed)
        }
        return events
    }

    /// Decodes `entry` and makes it what a loaded sound plays from its next start, keeping its id and
    /// users; the version it replaces is let go of after the lock (voices playing it keep it).
    /// - Returns: The report, or nothing when the sound was unloaded meanwhile.
    private func reload(_ name: String, as entry: SoundEntry) -> [SoundEvent] {
        guard let id = table.withLock({ $0.loaded[name]?.id }) else { return [] }
        let decoded: Decoded
        do { decoded = try Self.decode(entry, id: id, engine: engine, cache: pcmCache) } catch {
            return [.reloadFailed(file: entry.path, error: error)]
        }
        let defaults = defaults(for: entry)
        let replaced = table.withLock { table -> Loaded? in
            guard var item = table.loaded[name], item.id == id else { return nil }
            let replaced = item
            item.found = Found(entry: entry, id: id, buffer: decoded.buffer)
            item.info = decoded.info
            item.stems = decoded.stems
            item.warnings = decoded.warnings
            table.loaded[name] = item
            engine.install(id, buffer: decoded.buffer, defaults: defaults)
            return replaced
        }
        // The old buffers may be freed here, deleting them on the device: after every lock.
        guard replaced != nil else { return [] }
        return [.reloaded(sound: name, file: entry.path, warnings: decoded.warnings)]
    }
}
