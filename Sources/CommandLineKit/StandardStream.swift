import Glibc

/// Standard output or standard error, written with `write(2)`: what the CLIs used Foundation's
/// `FileHandle.standardOutput` and `.standardError` for.
///
/// Why not Foundation's: the CLIs import no Foundation, so each is a few megabytes rather
/// than 75 (see Docs/Packages.md, "Sizes").
public struct StandardStream: Sendable {
    /// Standard output (file descriptor 1).
    public static let output = StandardStream(fileDescriptor: 1)
    /// Standard error (file descriptor 2).
    public static let error = StandardStream(fileDescriptor: 2)

    /// The stream's file descriptor.
    public let fileDescriptor: Int32

    /// Writes all of `bytes` (such as `Data(text.utf8)`), retrying after a signal or a short write;
    /// a closed or full stream drops the rest, as `FileHandle.write` on a pipe whose reader left
    /// would not be worth dying for.
    /// - Parameter bytes: The bytes to write.
    public func write(_ bytes: some Collection<UInt8>) {
        let all = Array(bytes)
        var offset = 0
        while offset < all.count {
            let written = all.withUnsafeBytes {
                Glibc.write(fileDescriptor, $0.baseAddress! + offset, all.count - offset)
            }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }

    /// Writes `text` as UTF-8.
    /// - Parameter text: The text to write.
    public func write(_ text: String) { write(Array(text.utf8)) }
}
