import Glibc

/// A recursive POSIX mutex with Foundation's `NSRecursiveLock` shape (`lock()`, `unlock()`): the
/// thread holding it may take it again, and must release it as often.
///
/// Why not Foundation's: the package does not import Foundation (see ``PosixThread``). Like
/// ``Locked``, it is a `pthread_mutex_t`, which ThreadSanitizer sees.
///
/// `@unchecked Sendable`: the mutex itself is the synchronisation; it lives on the heap, so its
/// address never changes.
final class RecursiveLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    /// An unlocked recursive mutex.
    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Waits until the lock is free or already this thread's, then takes it (once more).
    func lock() { pthread_mutex_lock(mutex) }

    /// Releases one ``lock()``.
    func unlock() { pthread_mutex_unlock(mutex) }
}
