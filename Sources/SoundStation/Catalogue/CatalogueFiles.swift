#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Thin POSIX file helpers that report `errno` text, which Foundation's convenience APIs hide.
enum CatalogueFiles {
    /// What a path names once symlinks are followed.
    enum Kind: Equatable {
        case missing
        case regularFile
        case directory
        case other
    }

    /// The canonical absolute path with every symlink, `.` and `..` resolved; nil if any part
    /// of the path does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The kind of file at `path`, following symlinks.
    static func kind(of path: String) -> Kind {
        var info = stat()
        guard stat(path, &info) == 0 else { return .missing }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .regularFile
        case S_IFDIR: return .directory
        default: return .other
        }
    }

    /// Reads a whole file, or returns the system's reason it could not.
    static func read(_ path: String) -> Result<[UInt8], ReadFailure> {
        if kind(of: path) == .directory { return .failure(ReadFailure(reason: "it is a directory")) }
        guard let file = fopen(path, "rb") else { return .failure(ReadFailure(reason: errnoText())) }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            bytes.append(contentsOf: chunk[..<count])
            if count < chunk.count {
                if ferror(file) != 0 { return .failure(ReadFailure(reason: errnoText())) }
                return .success(bytes)
            }
        }
    }

    /// The reason a read failed, in the system's words.
    struct ReadFailure: Error {
        let reason: String
    }

    /// Makes `path` absolute against the working directory, without touching symlinks.
    static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        guard let cwd = getcwd(nil, 0) else { return path }
        defer { free(cwd) }
        let base = String(cString: cwd)
        return base == "/" ? "/" + path : base + "/" + path
    }

    /// The folder part of a path ("." for a bare file name), like dirname(1).
    static func directory(of path: String) -> String {
        let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        let parent = String(trimmed[..<slash])
        return parent.isEmpty ? "/" : parent
    }

    private static func errnoText() -> String {
        String(cString: strerror(errno))
    }
}
