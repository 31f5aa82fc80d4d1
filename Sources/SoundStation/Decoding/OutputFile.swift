import Glibc

/// A file being written with plain `write(2)`, so failures report the system's reason (a full disk,
/// a lost mount) instead of being buffered away as `fwrite` would.
final class OutputFile {
    let path: String
    private(set) var bytesWritten = 0
    private var fd: Int32

    /// Creates or truncates `path`.
    init(path: String) throws(AudioEncodingError) {
        self.path = path
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw .cannotCreate(path: path, reason: Self.systemError())
        }
    }

    deinit {
        if fd >= 0 { Glibc.close(fd) }
    }

    var isOpen: Bool { fd >= 0 }

    /// Writes every byte, retrying partial and interrupted writes.
    func write(_ buffer: UnsafeRawBufferPointer) throws(AudioEncodingError) {
        guard fd >= 0 else {
            throw .writeFailed(path: path, reason: "the file was already closed")
        }
        var done = 0
        while done < buffer.count {
            let n = Glibc.write(fd, buffer.baseAddress! + done, buffer.count - done)
            if n < 0 {
                if errno == EINTR { continue }
                throw .writeFailed(path: path, reason: Self.systemError())
            }
            done += n
            bytesWritten += n
        }
    }

    /// Writes every byte of `bytes`.
    func write(_ bytes: [UInt8]) throws(AudioEncodingError) {
        // withUnsafeBytes only rethrows untyped errors, so the typed one is carried out in a Result.
        let outcome = bytes.withUnsafeBytes { buffer in
            Result { () throws(AudioEncodingError) in try write(buffer) }
        }
        try outcome.get()
    }

    /// Asks the kernel to put the data on disk; pipes and devices cannot be synced, which is no failure.
    func sync() throws(AudioEncodingError) {
        guard fd >= 0 else { return }
        if fsync(fd) != 0 && errno != EINVAL && errno != EROFS {
            throw .writeFailed(path: path, reason: Self.systemError())
        }
    }

    /// Closes the file; `close` can report a deferred write error (NFS, quota), so it is checked.
    func close() throws(AudioEncodingError) {
        guard fd >= 0 else { return }
        let result = Glibc.close(fd)
        fd = -1
        if result != 0 && errno != EINTR {
            throw .writeFailed(path: path, reason: Self.systemError())
        }
    }

    static func systemError() -> String {
        String(cString: strerror(errno))
    }
}
