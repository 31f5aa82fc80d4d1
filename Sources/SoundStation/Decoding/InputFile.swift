import Glibc

/// Random access to the bytes of something a decoder reads, so header parsing works the same on a
/// buffer in memory and on a file of which it reads only the headers.
protocol ByteSource {
    /// The total number of bytes.
    var byteCount: Int { get }
    /// Up to `count` bytes starting at `offset`; fewer only at the end.
    func bytes(at offset: Int, count: Int) throws(AudioDecodingError) -> [UInt8]
}

extension Array: ByteSource where Element == UInt8 {
    var byteCount: Int { count }

    func bytes(at offset: Int, count: Int) -> [UInt8] {
        let start = Swift.min(Swift.max(offset, 0), self.count)
        let end = Swift.min(start + Swift.max(count, 0), self.count)
        return Array(self[start..<end])
    }
}

/// A regular file opened read-only, read with `pread` so several readers need no shared position.
final class InputFile: ByteSource {
    let path: String
    let byteCount: Int
    private let fd: Int32

    /// Opens `path`; directories, devices and empty files are refused up front because decoding them
    /// would only fail later with a vaguer message.
    init(path: String) throws(AudioDecodingError) {
        self.path = path
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw .unreadable(path: path, reason: Self.systemError())
        }
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            let reason = Self.systemError()
            close(fd)
            throw .unreadable(path: path, reason: reason)
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            let kind = (status.st_mode & S_IFMT) == S_IFDIR ? "a directory" : "not a regular file"
            throw .unreadable(path: path, reason: "it is \(kind)")
        }
        guard status.st_size > 0 else {
            close(fd)
            throw .unreadable(path: path, reason: "the file is empty (0 bytes)")
        }
        self.fd = fd
        self.byteCount = Int(status.st_size)
    }

    deinit {
        close(fd)
    }

    func bytes(at offset: Int, count: Int) throws(AudioDecodingError) -> [UInt8] {
        let start = min(max(offset, 0), byteCount)
        let wanted = min(max(count, 0), byteCount - start)
        var result = [UInt8](repeating: 0, count: wanted)
        // withUnsafeMutableBytes only rethrows untyped errors, so the typed one is carried out in a Result.
        let outcome = result.withUnsafeMutableBytes { buffer in
            Result { () throws(AudioDecodingError) -> Int in try read(into: buffer, at: start) }
        }
        let got = try outcome.get()
        return got == wanted ? result : Array(result[..<got])
    }

    /// Fills as much of `buffer` as the file has from `offset`, retrying short and interrupted reads.
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(AudioDecodingError) -> Int {
        var done = 0
        while done < buffer.count {
            let n = pread(fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
            if n < 0 {
                if errno == EINTR { continue }
                throw .unreadable(path: path, reason: Self.systemError())
            }
            if n == 0 { break }
            done += n
        }
        return done
    }

    /// Every byte of the file.
    func readAll() throws(AudioDecodingError) -> [UInt8] {
        try bytes(at: 0, count: byteCount)
    }

    static func systemError() -> String {
        String(cString: strerror(errno))
    }
}

/// The size rule of the decoders that hold their whole file in memory (modules, chiptunes, MIDI
/// songs): not empty, and not over the decoder's limit, refused before anything is read or parsed.
struct WholeFileLimit {
    /// The most bytes the decoder takes.
    let bytes: Int
    /// What the file is, for the message ("a module").
    let kind: String

    /// Checks a file's or a buffer's size.
    /// - Parameters:
    ///   - count: Its size in bytes.
    ///   - name: The file name to use in the error.
    /// - Throws: ``AudioDecodingError/unreadable(path:reason:)`` for an empty one,
    ///   ``AudioDecodingError/unsupportedFormat(path:reason:)`` naming the size and the limit for a
    ///   larger one.
    func check(_ count: Int, name: String) throws(AudioDecodingError) {
        guard count > 0 else { throw .unreadable(path: name, reason: "the file is empty (0 bytes)") }
        guard count <= bytes else {
            throw .unsupportedFormat(
                path: name, reason: "\(kind) of \(count) bytes (at most \(bytes >> 20) MiB)")
        }
    }

    /// Reads the whole of a file once its size has passed ``check(_:name:)``.
    /// - Parameter path: The file.
    /// - Returns: Its bytes.
    /// - Throws: ``AudioDecodingError`` naming the file: unreadable, or of a size ``check(_:name:)`` refuses.
    func read(_ path: String) throws(AudioDecodingError) -> [UInt8] {
        try read(InputFile(path: path))
    }

    /// Reads the whole of an open file once its size has passed ``check(_:name:)``.
    /// - Parameter file: The file.
    /// - Returns: Its bytes.
    /// - Throws: ``AudioDecodingError`` naming the file: unreadable, or of a size ``check(_:name:)`` refuses.
    func read(_ file: InputFile) throws(AudioDecodingError) -> [UInt8] {
        try check(file.byteCount, name: file.path)
        return try file.readAll()
    }
}
