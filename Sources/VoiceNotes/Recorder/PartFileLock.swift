import Glibc

/// An advisory lock on an unfinished note, held while it is recorded or repaired.
///
/// The library repairs only `.part` files nobody holds, so it never touches a recording in progress
/// (in this process or another); the kernel drops the lock when the recorder dies, even by `kill -9`.
final class PartFileLock {
    private let descriptor: Int32

    /// Takes the lock, or returns nil when another holder has it (or the file is gone).
    /// - Parameter path: The unfinished file.
    init?(path: String) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            Glibc.close(descriptor)
            return nil
        }
        self.descriptor = descriptor
    }

    deinit {
        // Closing the descriptor releases the lock.
        Glibc.close(descriptor)
    }
}
