import Glibc

/// Where a game's assets live.
public enum AssetLocation: Sendable {
    /// A plain folder, absolute or relative to the working directory.
    case directory(String)
    /// A folder inside a bundle's resources, such as SwiftPM's `Bundle.module` for a target
    /// that declares `resources: [.copy("Assets")]`; an empty subdirectory means the resources
    /// folder itself. Pass Foundation's `Bundle` through a ``ResourceBundle`` (see there for how and
    /// why).
    case bundle(any ResourceBundle, subdirectory: String)

    /// The environment variable that overrides where `locateDefault` looks.
    public static let environmentVariable = "SOUNDSTATION_ASSETS"

    /// The absolute, symlink-resolved folder this location names, checked to exist.
    /// - Returns: The real path of the folder (symlinks resolved).
    /// - Throws: ``CatalogueError/assetsNotFound(searched:)`` naming the folder when it does not
    ///   exist or is not a directory, or the bundle when it has no resources folder.
    public func resolve() throws(CatalogueError) -> String {
        let candidate: String
        switch self {
        case .directory(let path):
            candidate = CatalogueFiles.absolute(path)
        case .bundle(let bundle, let subdirectory):
            guard let resources = bundle.resourcePath else {
                throw .assetsNotFound(searched: [bundle.bundlePath + " (bundle without resources)"])
            }
            candidate = subdirectory.isEmpty ? resources : resources + "/" + subdirectory
        }
        guard let real = CatalogueFiles.realPath(candidate), CatalogueFiles.kind(of: real) == .directory
        else {
            throw .assetsNotFound(searched: [candidate])
        }
        return real
    }

    /// Finds the assets folder of a game run from anywhere in its repository.
    ///
    /// Looks, in order, at `$SOUNDSTATION_ASSETS`, `./Assets`, then `share/soundstation/Assets` and
    /// `Assets` beside the executable and in each folder above it, so `swift run` works from any
    /// subfolder, a binary finds assets shipped next to it, and an installed one (`/usr/bin/starfall`
    /// from `make install-bin` or soundstation-tools) finds `PREFIX/share/soundstation/Assets`.
    /// A candidate counts only if it holds
    /// `catalogue.json`. A set variable is final: if it points nowhere that is an error
    /// rather than a silent fallback to some other game's assets.
    /// - Parameters:
    ///   - environment: The process environment; injectable for tests.
    ///   - currentDirectory: Where `./Assets` is looked for; defaults to the working directory.
    ///   - executablePath: The running binary; defaults to `/proc/self/exe`, then `argv[0]`.
    /// - Returns: The absolute, symlink-resolved assets root.
    /// - Throws: ``CatalogueError/assetsNotFound(searched:)`` listing every folder tried, in order;
    ///   when `SOUNDSTATION_ASSETS` is set, only that folder, which holds no `catalogue.json`.
    public static func locateDefault(
        environment: [String: String] = ProcessEnvironment.variables,
        currentDirectory: String? = nil,
        executablePath: String? = nil
    ) throws(CatalogueError) -> String {
        if let override = environment[environmentVariable], !override.isEmpty {
            let root = CatalogueFiles.absolute(override)
            guard let found = assetsRoot(at: root) else { throw .assetsNotFound(searched: [root]) }
            return found
        }
        var searched: [String] = []
        let cwd = currentDirectory ?? ProcessEnvironment.currentDirectory
        let candidates =
            [join(cwd, "Assets")]
            + executableAncestors(executablePath).flatMap {
                [join($0, "share/soundstation/Assets"), join($0, "Assets")]
            }
        for candidate in candidates where !searched.contains(candidate) {
            if let found = assetsRoot(at: candidate) { return found }
            searched.append(candidate)
        }
        throw .assetsNotFound(searched: searched)
    }

    /// The real path of `folder` if it holds a manifest.
    private static func assetsRoot(at folder: String) -> String? {
        guard CatalogueFiles.kind(of: join(folder, Catalogue.manifestName)) == .regularFile else {
            return nil
        }
        return CatalogueFiles.realPath(folder)
    }

    /// The executable's folder and every folder above it, nearest first.
    private static func executableAncestors(_ explicit: String?) -> [String] {
        let executable =
            explicit ?? CatalogueFiles.realPath("/proc/self/exe")
            ?? CommandLine.arguments.first.flatMap { CatalogueFiles.realPath(CatalogueFiles.absolute($0)) }
        guard let executable else { return [] }
        var folders: [String] = []
        var folder = CatalogueFiles.directory(of: CatalogueFiles.absolute(executable))
        while !folders.contains(folder) {
            folders.append(folder)
            folder = CatalogueFiles.directory(of: folder)
        }
        return folders
    }

    private static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }
}

/// What ``AssetLocation/bundle(_:subdirectory:)`` reads of a bundle: its two paths, which
/// Foundation's `Bundle` has under these names.
///
/// A protocol rather than `Bundle` itself because the package imports only `FoundationEssentials`
/// (no `Bundle` there), so that libsoundstation.so and the CLIs do not carry all of Foundation and
/// its internationalisation data. A game that uses SwiftPM resources imports Foundation anyway and
/// wraps `Bundle` in three lines:
///
/// ```swift
/// struct GameBundle: ResourceBundle {
///     let bundle: Bundle
///     var resourcePath: String? { bundle.resourcePath }
///     var bundlePath: String { bundle.bundlePath }
/// }
/// let assets = AssetLocation.bundle(GameBundle(bundle: .module), subdirectory: "Assets")
/// ```
public protocol ResourceBundle: Sendable {
    /// The folder holding the bundle's resources, or nil when it has none.
    var resourcePath: String? { get }
    /// The bundle's own folder, named in the error when it has no resources.
    var bundlePath: String { get }
}

/// The default assets root (see `AssetLocation.locateDefault`), or nil when none is found.
/// Handy for command-line tools that fall back to an explicit argument.
/// - Returns: The absolute, symlink-resolved assets root, or nil when
///   ``AssetLocation/locateDefault(environment:currentDirectory:executablePath:)`` finds none.
public func locateDefaultAssets() -> String? {
    try? AssetLocation.locateDefault()
}
