import Glibc

/// What the package reads of its process and the file system without Foundation: the environment,
/// the processor count, the working directory, a file's size.
///
/// Why: the package does not import Foundation (nor FoundationEssentials), so that
/// libsoundstation.so and the CLIs carry only the Swift runtime (see Docs/Packages.md, "Sizes");
/// these four were all it used of Foundation's `ProcessInfo` and `FileManager`.
@usableFromInline
package enum ProcessEnvironment {
    /// The process environment as it is at the call (later `setenv` calls show), as
    /// `ProcessEnvironment.variables` gives it: a variable without `=` is left out, and a name
    /// set twice keeps its first value, as `getenv` finds.
    @usableFromInline
    package static var variables: [String: String] {
        var result: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                let name = String(text[..<equals])
                if result[name] == nil { result[name] = String(text[text.index(after: equals)...]) }
            }
            entry += 1
        }
        return result
    }

    /// The processors online (at least 1): how many sounds a preload decodes at once.
    package static var processorCount: Int {
        max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    }

    /// The working directory's absolute path, or "." when it cannot be read (it was removed).
    package static var currentDirectory: String {
        guard let path = getcwd(nil, 0) else { return "." }
        defer { free(path) }
        return String(cString: path)
    }

    /// The size in bytes of the file at `path` (following symlinks), or nil when it cannot be read.
    package static func fileSize(atPath path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int(info.st_size)
    }
}
