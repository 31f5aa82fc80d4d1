import Glibc

/// Every sound a game can play, read from the manifest `catalogue.json` in its assets folder.
///
/// Loading checks the manifest strictly (unknown keys, ranges, duplicate names) and that each
/// file exists inside the assets root, so mistakes surface at startup with a clear message
/// instead of as silence mid-game. It does not decode audio; that is a separate verify step.
public struct Catalogue: Sendable, Equatable {
    /// The absolute, symlink-resolved assets root every entry's `path` is relative to.
    public let root: String
    /// The sounds, in manifest order.
    public let entries: [SoundEntry]
    /// The manifest's file name inside an assets root.
    public static let manifestName = "catalogue.json"

    /// Lookup by name; entries stay an array so manifest order is kept for listings.
    private let positions: [String: Int]

    /// Loads `<assetsRoot>/catalogue.json`, or, when `assetsRoot` holds no `catalogue.json` and
    /// `SOUNDSTATION_ASSETS` is set, the one in that folder: so a game that names its assets folder
    /// relative to where it is usually started (`"Assets"`) still finds them when started elsewhere,
    /// as the ``CatalogueError/assetsNotFound(searched:)`` message advises.
    ///
    /// ```swift
    /// // SOUNDSTATION_ASSETS=/opt/mygame/Assets ./mygame  works from any folder
    /// let catalogue = try Catalogue(assetsRoot: "Assets")
    /// ```
    /// - Parameters:
    ///   - assetsRoot: The folder holding `catalogue.json`, absolute or relative to the working directory.
    ///   - environment: Where `SOUNDSTATION_ASSETS` is read; the process environment by default. Pass
    ///     `[:]` when `assetsRoot` was given explicitly (a `--assets` option) and must be final.
    /// - Throws: ``CatalogueError/assetsNotFound(searched:)`` naming every folder tried when neither
    ///   exists, or the first problem found in the manifest.
    public init(
        assetsRoot: String, environment: [String: String] = ProcessEnvironment.variables
    ) throws(CatalogueError) {
        var root = assetsRoot
        if !Self.holdsManifest(assetsRoot),
            let override = environment[AssetLocation.environmentVariable], !override.isEmpty
        {
            guard Self.holdsManifest(override) else {
                throw .assetsNotFound(searched: [assetsRoot, override].map(CatalogueFiles.absolute))
            }
            root = override
        }
        guard CatalogueFiles.kind(of: root) == .directory else {
            throw .assetsNotFound(searched: [CatalogueFiles.absolute(root)])
        }
        try self.init(manifestAt: Self.manifestPath(in: root), root: root)
    }

    /// `<folder>/catalogue.json`.
    private static func manifestPath(in folder: String) -> String {
        folder.hasSuffix("/") ? folder + manifestName : folder + "/" + manifestName
    }

    /// Whether `folder` has a `catalogue.json` file.
    private static func holdsManifest(_ folder: String) -> Bool {
        CatalogueFiles.kind(of: manifestPath(in: folder)) == .regularFile
    }

    /// Loads the assets folder an `AssetLocation` points at.
    /// - Parameter location: A folder, or a folder inside a bundle's resources.
    /// - Throws: ``CatalogueError/assetsNotFound(searched:)`` when the folder does not exist,
    ///   ``CatalogueError/manifestUnreadable(path:reason:)`` when its `catalogue.json` cannot be read,
    ///   or the first problem found in the manifest: ``CatalogueError/invalidJSON(path:reason:)``,
    ///   ``CatalogueError/unknownKey(path:entry:key:)``, ``CatalogueError/missingKey(path:entry:key:)``,
    ///   ``CatalogueError/invalidValue(path:entry:key:value:expected:)``,
    ///   ``CatalogueError/duplicateName(path:name:)``, ``CatalogueError/pathEscapesRoot(name:path:reason:)``
    ///   or ``CatalogueError/fileMissing(name:path:)``.
    public init(location: AssetLocation) throws(CatalogueError) {
        try self.init(assetsRoot: try location.resolve())
    }

    /// Loads a manifest from any file.
    /// - Parameters:
    ///   - path: The manifest file; messages name it as given.
    ///   - root: The folder sound paths are relative to; defaults to the manifest's folder.
    /// - Throws: ``CatalogueError/manifestUnreadable(path:reason:)`` when the file cannot be read,
    ///   ``CatalogueError/assetsNotFound(searched:)`` when `root` is not a folder, or
    ///   the first problem found in the manifest: ``CatalogueError/invalidJSON(path:reason:)``,
    ///   ``CatalogueError/unknownKey(path:entry:key:)``, ``CatalogueError/missingKey(path:entry:key:)``,
    ///   ``CatalogueError/invalidValue(path:entry:key:value:expected:)``,
    ///   ``CatalogueError/duplicateName(path:name:)``, ``CatalogueError/pathEscapesRoot(name:path:reason:)``
    ///   or ``CatalogueError/fileMissing(name:path:)``.
    public init(manifestAt path: String, root: String? = nil) throws(CatalogueError) {
        let bytes: [UInt8]
        switch CatalogueFiles.read(path) {
        case .success(let read): bytes = read
        case .failure(let failure): throw .manifestUnreadable(path: path, reason: failure.reason)
        }
        try self.init(json: bytes, root: root ?? CatalogueFiles.directory(of: path), manifestName: path)
    }

    /// Builds a catalogue from manifest bytes already in memory.
    /// - Parameters:
    ///   - json: The manifest's UTF-8 text.
    ///   - root: The folder sound paths are relative to; it must exist.
    ///   - manifestName: How messages name the manifest.
    /// - Throws: ``CatalogueError/assetsNotFound(searched:)`` when `root` is not a folder, or
    ///   the first problem found in the manifest: ``CatalogueError/invalidJSON(path:reason:)``,
    ///   ``CatalogueError/unknownKey(path:entry:key:)``, ``CatalogueError/missingKey(path:entry:key:)``,
    ///   ``CatalogueError/invalidValue(path:entry:key:value:expected:)``,
    ///   ``CatalogueError/duplicateName(path:name:)``, ``CatalogueError/pathEscapesRoot(name:path:reason:)``
    ///   or ``CatalogueError/fileMissing(name:path:)``.
    public init(json: [UInt8], root: String, manifestName: String = Catalogue.manifestName)
        throws(CatalogueError)
    {
        guard let realRoot = CatalogueFiles.realPath(root), CatalogueFiles.kind(of: realRoot) == .directory
        else {
            throw .assetsNotFound(searched: [CatalogueFiles.absolute(root)])
        }
        let entries = try ManifestParser(manifestPath: manifestName, root: realRoot).entries(from: json)
        self.root = realRoot
        self.entries = entries
        self.positions = Dictionary(uniqueKeysWithValues: entries.enumerated().map { ($1.name, $0) })
    }

    /// The catalogue with `entry` added at its end (a sound made at run time, outside the manifest).
    /// - Parameter entry: An entry whose name the catalogue does not have yet.
    /// - Returns: The larger catalogue, or `nil` when the name is taken.
    func adding(_ entry: SoundEntry) -> Catalogue? {
        guard positions[entry.name] == nil else { return nil }
        var positions = self.positions
        positions[entry.name] = entries.count
        return Catalogue(root: root, entries: entries + [entry], positions: positions)
    }

    /// A copy without `name` (itself when it has no such entry): a synthesised sound that failed to load.
    func removing(_ name: String) -> Catalogue {
        guard positions[name] != nil else { return self }
        let kept = entries.filter { $0.name != name }
        let positions = Dictionary(uniqueKeysWithValues: kept.enumerated().map { ($1.name, $0) })
        return Catalogue(root: root, entries: kept, positions: positions)
    }

    private init(root: String, entries: [SoundEntry], positions: [String: Int]) {
        (self.root, self.entries, self.positions) = (root, entries, positions)
    }

    /// The sound with this name, or nil; use `entry(named:)` to get a helpful error instead.
    /// - Parameter name: The entry's `name` in the manifest.
    /// - Returns: The entry, or nil when the catalogue has no sound of that name.
    public subscript(name: String) -> SoundEntry? {
        positions[name].map { entries[$0] }
    }

    /// The sound with this name, or an `unknownSound` error that suggests close names.
    /// - Parameter name: The entry's `name` in the manifest.
    /// - Returns: The entry.
    /// - Throws: ``CatalogueError/unknownSound(name:suggestions:)`` when no entry has that name; the
    ///   suggestions are the closest names the catalogue has.
    public func entry(named name: String) throws(CatalogueError) -> SoundEntry {
        guard let entry = self[name] else {
            throw .unknownSound(
                name: name, suggestions: NameSuggestions.closest(to: name, among: entries.map(\.name)))
        }
        return entry
    }

    /// The sound a typed resource (usually a game's enum case) stands for.
    /// - Parameter resource: A value whose ``SoundResource/catalogueName`` names an entry.
    /// - Returns: The entry.
    /// - Throws: ``CatalogueError/unknownSound(name:suggestions:)`` when no entry has that name.
    public func entry(for resource: some SoundResource) throws(CatalogueError) -> SoundEntry {
        try entry(named: resource.catalogueName)
    }

    /// The sounds of one kind, in manifest order.
    /// - Parameter kind: Effect, music or voice.
    /// - Returns: Every entry of that kind; empty when there is none.
    public func entries(ofKind kind: SoundKind) -> [SoundEntry] {
        entries.filter { $0.kind == kind }
    }
}
