/// Keeps every sound file inside the assets root.
///
/// Manifests come from content pipelines and mods, so a path must not be able to make the
/// engine read arbitrary files: paths are checked as written, then again after the file
/// system has resolved every symlink.
enum PathSafety {
    /// Checks `path` and returns its absolute location under `root`.
    /// - Parameters:
    ///   - name: The sound's name, for messages.
    ///   - path: The path as the manifest writes it.
    ///   - root: The real (already symlink-resolved) absolute assets root.
    ///   - manifestPath: How the manifest is named in messages.
    static func resolve(
        name: String, path: String, root: String, manifestPath: String
    ) throws(CatalogueError) -> String {
        if path.hasPrefix("/") {
            throw .pathEscapesRoot(
                name: name, path: path, reason: "absolute paths are not allowed, use a relative one")
        }
        let components = path.split(separator: "/", omittingEmptySubsequences: true)
        if components.contains("..") {
            throw .pathEscapesRoot(name: name, path: path, reason: "\"..\" components are not allowed")
        }
        if path.utf8.contains(0) {
            throw .pathEscapesRoot(name: name, path: path, reason: "it contains a NUL byte")
        }
        let relative = components.filter { $0 != "." }.joined(separator: "/")
        let joined = root == "/" ? "/" + relative : root + "/" + relative
        guard !relative.isEmpty else {
            throw notAFile(name, path, manifestPath, "the path of a file, not of the assets folder itself")
        }
        // A dangling symlink lands here too; nothing can be read through it, wherever it points.
        guard let real = CatalogueFiles.realPath(joined) else { throw .fileMissing(name: name, path: joined) }
        guard real == root || real.hasPrefix(root == "/" ? "/" : root + "/") else {
            throw .pathEscapesRoot(
                name: name, path: path,
                reason: "a symlink resolves it to \(real), outside the assets folder \(root)")
        }
        switch CatalogueFiles.kind(of: real) {
        case .regularFile: return joined
        case .missing: throw .fileMissing(name: name, path: joined)
        case .directory: throw notAFile(name, path, manifestPath, "a file, but this is a directory")
        case .other: throw notAFile(name, path, manifestPath, "a regular file, not a device, socket or pipe")
        }
    }

    private static func notAFile(
        _ name: String, _ path: String, _ manifestPath: String, _ expected: String
    ) -> CatalogueError {
        .invalidValue(path: manifestPath, entry: name, key: "path", value: "\"\(path)\"", expected: expected)
    }
}
