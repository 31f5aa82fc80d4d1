import Glibc

/// An advisory lock on an unfinished note, held while it is recorded or repaired.
///
/// The library repairs only `.part` files nobody holds, so it never touches a recording in progress
/// (in this process or another); the kernel drops the lock when the recorder dies, even by `kill -9`.
///
/// The lock belongs to the open file, not to the process: a child the process starts (any thread,
/// `posix_spawn` or `fork`) gets a copy of the descriptor, and holds the lock with it until it runs
/// its program (`O_CLOEXEC` closes it then). So a lock released while a child is starting can read
/// as held for that instant, and a refresh then leaves the file for the next one. Record locks
/// (`F_SETLK`) do not reach children, but a process's own two descriptors do not exclude each
/// other there, and closing any descriptor of the file drops them, which would let the library
/// repair a recording this same process is writing.
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
