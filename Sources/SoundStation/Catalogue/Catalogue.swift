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

    /// Loads `<assetsRoot>/catalogue.json`.
    public init(assetsRoot: String) throws(CatalogueError) {
        guard CatalogueFiles.kind(of: assetsRoot) == .directory else {
            throw .assetsNotFound(searched: [CatalogueFiles.absolute(assetsRoot)])
        }
        let manifest =
            assetsRoot.hasSuffix("/") ? assetsRoot + Self.manifestName : assetsRoot + "/" + Self.manifestName
        try self.init(manifestAt: manifest, root: assetsRoot)
    }

    /// Loads the assets folder an `AssetLocation` points at.
    public init(location: AssetLocation) throws(CatalogueError) {
        try self.init(assetsRoot: try location.resolve())
    }

    /// Loads a manifest from any file.
    /// - Parameters:
    ///   - path: The manifest file; messages name it as given.
    ///   - root: The folder sound paths are relative to; defaults to the manifest's folder.
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

    /// The sound with this name, or nil; use `entry(named:)` to get a helpful error instead.
    public subscript(name: String) -> SoundEntry? {
        positions[name].map { entries[$0] }
    }

    /// The sound with this name, or an `unknownSound` error that suggests close names.
    public func entry(named name: String) throws(CatalogueError) -> SoundEntry {
        guard let entry = self[name] else {
            throw .unknownSound(
                name: name, suggestions: NameSuggestions.closest(to: name, among: entries.map(\.name)))
        }
        return entry
    }

    /// The sound a typed resource (usually a game's enum case) stands for.
    public func entry(for resource: some SoundResource) throws(CatalogueError) -> SoundEntry {
        try entry(named: resource.catalogueName)
    }

    /// The sounds of one kind, in manifest order.
    public func entries(ofKind kind: SoundKind) -> [SoundEntry] {
        entries.filter { $0.kind == kind }
    }
}
