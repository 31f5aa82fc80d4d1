import Glibc

/// A file written with plain system calls, so a full disk or a lost mount is reported with the
/// system's reason at the write that hit it, not buffered away.
final class RawFile {
    let path: String
    private var descriptor: Int32

    /// Creates an empty file private to its owner, refusing to replace one: a new note never
    /// overwrites an old one, even when two recorders start in the same second.
    /// - Returns: False when the file already exists.
    static func createEmpty(_ path: String) throws(VoiceNoteError) -> Bool {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            if errno == EEXIST { return false }
            throw .cannotCreateFile(path: path, reason: RawFile.systemError())
        }
        Glibc.close(descriptor)
        return true
    }

    /// Opens an existing file for reading and writing (a repair patches it in place).
    init(updating path: String) throws(VoiceNoteError) {
        self.path = path
        descriptor = open(path, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw .fileOperationFailed(path: path, operation: "open", reason: RawFile.systemError())
        }
    }

    deinit {
        if descriptor >= 0 { Glibc.close(descriptor) }
    }

    /// Writes every byte at `offset`, or at the end when `offset` is nil; the reason for a failure
    /// (ENOSPC, EFBIG, EIO) goes into the error.
    func write(_ bytes: [UInt8], at offset: Int? = nil) throws(RawFileError) {
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                let start = buffer.baseAddress! + done
                if let offset {
                    return pwrite(descriptor, start, buffer.count - done, off_t(offset + done))
                }
                return Glibc.write(descriptor, start, buffer.count - done)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw RawFileError(reason: RawFile.systemError())
            }
            done += count
        }
    }

    /// Cuts the file to `length` bytes.
    func truncate(to length: Int) throws(RawFileError) {
        if ftruncate(descriptor, off_t(length)) != 0 {
            throw RawFileError(reason: RawFile.systemError())
        }
    }

    /// Asks the kernel to put the data on disk.
    func sync() throws(RawFileError) {
        if fsync(descriptor) != 0 && errno != EINVAL {
            throw RawFileError(reason: RawFile.systemError())
        }
    }

    /// Closes the file, reporting a deferred write error.
    func close() throws(RawFileError) {
        guard descriptor >= 0 else { return }
        let result = Glibc.close(descriptor)
        descriptor = -1
        if result != 0 && errno != EINTR {
            throw RawFileError(reason: RawFile.systemError())
        }
    }

    /// The text of the current `errno`.
    static func systemError() -> String {
        String(cString: strerror(errno))
    }
}

/// A system call on a ``RawFile`` failed; the caller knows which file and what it was doing.
struct RawFileError: Error {
    let reason: String
}
