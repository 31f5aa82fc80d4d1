import Glibc

/// A value guarded by a POSIX mutex: the lock of the package's shared state, apart from the SSH link's
/// outbox (`RemoteLink`), which uses `Synchronization.Mutex` and so is out of `make tsan`'s sight.
///
/// It has `Mutex`'s shape (`Locked(value)`, `withLock { ... }`); it is built on `pthread_mutex_t`
/// rather than `Synchronization.Mutex` because on Linux that `Mutex` hands a contended lock over in
/// the kernel (futex), where ThreadSanitizer cannot see it, so `make tsan` reported every contended
/// access as a race (shown with a ten-line program: four threads appending under one `Mutex`).
/// ThreadSanitizer intercepts `pthread_mutex_lock`, so races it reports are real again. Never held on
/// the trigger path, which takes no lock at all; the locks a game's other calls take (the snapshot,
/// the settings) are held by the mixing side only to swap a value in, never while it works.
///
/// `@unchecked Sendable`: every access to `value` happens between lock and unlock.
package final class Locked<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    /// The value, behind a pointer rather than in a stored `var`: the lock is what keeps accesses
    /// apart, and a class's stored `var` passed `inout` is also checked at run time for overlapping
    /// accesses (`swift_beginAccess`), which cost a game's bus volume change more than its lock.
    private let value: UnsafeMutablePointer<Value>

    /// Guards `value`.
    package init(_ value: Value) {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        self.value = .allocate(capacity: 1)
        self.value.initialize(to: value)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
        value.deinitialize(count: 1)
        value.deallocate()
    }

    /// Runs `body` with the value while holding the lock; not reentrant.
    package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result)
        throws(Failure) -> Result
    {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value.pointee)
    }
}
