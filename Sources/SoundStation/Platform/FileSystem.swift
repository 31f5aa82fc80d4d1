import Glibc

/// The file operations VoiceNotes and the CLIs used Foundation's `FileManager` and `Data` for, on
/// POSIX calls: existence, listing, creating, removing, reading and writing whole files atomically,
/// and a file's modification time.
///
/// Why not Foundation's: the package imports no Foundation (not even FoundationEssentials), so the
/// library and every CLI carry only the Swift runtime (see ``ProcessEnvironment``). Failures come back
/// as the system's words (`strerror`), which the callers put in their own errors.
package enum FileSystem {
    /// Whether anything exists at `path` (following symlinks).
    package static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    /// Whether `path` is a directory (following symlinks); nil when nothing is there.
    package static func isDirectory(_ path: String) -> Bool? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & S_IFMT == S_IFDIR
    }

    /// The names in a directory, without "." and "..", in no particular order.
    /// - Throws: ``Failure`` with the system's reason when it cannot be read.
    package static func contentsOfDirectory(_ path: String) throws(Failure) -> [String] {
        guard let directory = opendir(path) else { throw Failure() }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Creates `path` and any missing folders above it with `mode`.
    /// - Throws: ``Failure`` naming the system's reason for the first folder that could not be made.
    package static func createDirectory(_ path: String, mode: mode_t = 0o755) throws(Failure) {
        var made = ""
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            made += (made.isEmpty && !path.hasPrefix("/") ? "" : "/") + part
            if mkdir(made, mode) != 0, errno != EEXIST { throw Failure() }
        }
        guard isDirectory(path) == true else { throw Failure(reason: "'\(path)' is not a folder") }
    }

    /// Removes a file, or an empty folder.
    /// - Throws: ``Failure`` with the system's reason.
    package static func remove(_ path: String) throws(Failure) {
        if unlink(path) == 0 { return }
        if errno == EISDIR || errno == EPERM, rmdir(path) == 0 { return }
        throw Failure()
    }

    /// The whole file, or nil when it cannot be read.
    package static func read(_ path: String) -> [UInt8]? {
        try? CatalogueFiles.read(path).get()
    }

    /// Writes `bytes` to a temporary file beside `path` and renames it over `path`, so a reader sees
    /// the old file or the new one, never half of one.
    /// - Throws: ``Failure`` with the system's reason; the temporary file is removed.
    package static func writeAtomically(_ bytes: [UInt8], to path: String) throws(Failure) {
        let temporary = path + ".tmp-\(getpid())"
        let file = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard file >= 0 else { throw Failure() }
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes {
                write(file, $0.baseAddress! + offset, bytes.count - offset)
            }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else {
                let failure = Failure()
                close(file)
                unlink(temporary)
                throw failure
            }
            offset += written
        }
        guard close(file) == 0, rename(temporary, path) == 0 else {
            let failure = Failure()
            unlink(temporary)
            throw failure
        }
    }

    /// The file's last modification, in seconds since 1970 with its nanoseconds (following
    /// symlinks); nil when it cannot be read.
    package static func modificationTime(_ path: String) -> Double? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
    }

    /// The wall clock now, in seconds since 1970 (`CLOCK_REALTIME`).
    package static var secondsSince1970: Double {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// Why a file operation failed, in the system's words (`strerror(errno)` at the failure).
    package struct Failure: Error, CustomStringConvertible {
        /// The system's reason, e.g. "Permission denied".
        package let reason: String

        /// The reason `errno` gives now.
        package init() { reason = String(cString: strerror(errno)) }

        /// A reason of the caller's.
        package init(reason: String) { self.reason = reason }

        /// The reason.
        package var description: String { reason }
    }
}
