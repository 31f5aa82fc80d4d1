import Glibc

/// Why the tool could not create a folder or write a file.
struct FileOutputError: Error, CustomStringConvertible {
    /// The folder or file involved.
    let path: String
    /// What was being attempted, e.g. "create the folder".
    let action: String
    /// The system's reason.
    let reason: String

    /// One line naming the path, the attempt and the reason.
    var description: String {
        "cannot \(action) \(path): \(reason); check the path and its permissions"
    }
}

/// Creates folders and writes files with plain POSIX calls, so a failure reports the system's
/// own reason ("Permission denied", "Not a directory") instead of a generic Foundation error.
enum FileOutput {
    /// Creates `path` and any missing parents; an existing folder is fine.
    static func makeFolder(_ path: String) throws {
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            current += "/" + component
            if mkdir(current, 0o755) != 0, errno != EEXIST {
                throw FileOutputError(path: current, action: "create the folder", reason: systemReason())
            }
        }
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw FileOutputError(path: path, action: "create the folder", reason: systemReason())
        }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw FileOutputError(path: path, action: "create the folder", reason: "a file is in the way")
        }
    }

    /// Writes `bytes` to `path`, replacing any existing file.
    static func write(_ bytes: [UInt8], to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw FileOutputError(path: path, action: "write", reason: systemReason())
        }
        defer { close(descriptor) }
        var written = 0
        while written < bytes.count {
            let result = bytes[written...].withUnsafeBytes {
                Glibc.write(descriptor, $0.baseAddress, $0.count)
            }
            if result < 0 {
                if errno == EINTR { continue }
                throw FileOutputError(path: path, action: "write", reason: systemReason())
            }
            written += result
        }
    }

    /// The text of the current `errno`.
    private static func systemReason() -> String {
        String(cString: strerror(errno))
    }
}
