import Glibc

/// A detached POSIX thread running one closure, in the shape of Foundation's `Thread` (the subset the
/// engine uses: the mixing driver, the asset watch).
///
/// Why not Foundation's: the package does not import Foundation, so that libsoundstation.so and the
/// CLIs do not carry it and its internationalisation data (about 45 MB; see Docs/Packages.md,
/// "Sizes"). Named apart from Foundation's so code that imports both (the tests) is not ambiguous.
///
/// `@unchecked Sendable`: `name` and `qualityOfService` are set before ``start()`` on the creating
/// thread only; the closure is `@Sendable`.
package final class PosixThread: @unchecked Sendable {
    /// Foundation's quality-of-service classes. Linux has no such classes (Foundation's `Thread`
    /// stores the value there without effect too); kept so callers state their intent.
    package enum QualityOfService { case userInteractive, userInitiated, utility, background, `default` }

    private let body: @Sendable () -> Void
    /// The thread's name as `top` and debuggers show it (cut to the kernel's 15 bytes).
    package var name: String?
    /// Stored, without effect on Linux (see ``QualityOfService``).
    package var qualityOfService: QualityOfService = .default

    /// A thread that runs `block` once ``start()`` is called.
    package init(block: @escaping @Sendable () -> Void) {
        body = block
    }

    /// Starts the thread, detached: it ends when its closure returns.
    ///
    /// A thread that cannot be created (the process is out of threads or memory) is a fatal error,
    /// as it is for Foundation's `Thread`: the engine cannot mix without it.
    package func start() {
        let context = Unmanaged.passRetained(Box(body: body, name: name)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(
            &thread, nil,
            { raw in
                let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
                if let name = box.name { PosixThread.setCurrentName(name) }
                box.body()
                return nil
            }, context)
        guard result == 0 else {
            Unmanaged<Box>.fromOpaque(context).release()
            fatalError("SoundStation: pthread_create failed (\(String(cString: strerror(result))))")
        }
        pthread_detach(thread)
    }

    /// Sleeps the calling thread for `interval` seconds (Foundation's `Thread.sleep(forTimeInterval:)`),
    /// resuming the sleep after a signal.
    package static func sleep(forTimeInterval interval: Double) {
        guard interval > 0 else { return }
        var request = timespec(
            tv_sec: Int(interval), tv_nsec: Int((interval - interval.rounded(.down)) * 1e9))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0, errno == EINTR { request = remaining }
    }

    /// Asks the kernel to run the calling thread in the real-time round-robin class (SCHED_RR) at
    /// `priority`, as a desktop runs its sound threads: in the normal class, beside two busy loops, a
    /// thread waited up to 224 ms for a core on a 2-core machine, longer than a device's queue lasts
    /// (Docs/Testing.md, "The SSH player under two busy loops"). Best effort: it takes CAP_SYS_NICE
    /// or an `RLIMIT_RTPRIO` (`ulimit -r`) of `priority` or more; when refused the thread stays as it is.
    /// - Returns: `nil` when granted, else why not (the error's text).
    package static func requestRealTime(priority: Int32) -> String? {
        var parameters = sched_param()
        parameters.sched_priority = priority
        let result = pthread_setschedparam(pthread_self(), SCHED_RR, &parameters)
        return result == 0 ? nil : String(cString: strerror(result))
    }

    /// The real-time priority the threads that carry a sound's timing ask for (SCHED_RR): above
    /// every thread of the normal class, below PulseAudio's sinks and main thread (5), the level
    /// OpenAL Soft's own mixer asks for with `rt-prio`.
    package static let soundPriority: Int32 = 1

    /// SCHED_RESET_ON_FORK, which a policy ORs in so what the thread starts runs in the normal class
    /// (and `sched_getscheduler` reports with the policy): Glibc's module leaves it out (it needs
    /// `_GNU_SOURCE`).
    package static let resetOnFork: Int32 = 0x4000_0000

    /// ``requestRealTime(priority:)`` for a thread whose own work is short and on time (reading a
    /// link, placing or sending a command) but which may start threads or processes that are not:
    /// those start in the normal class (Linux's `SCHED_RESET_ON_FORK`), so a decoder or a game's
    /// helper started from it never runs real-time by inheritance.
    /// - Returns: `nil` when granted, else why not (the error's text).
    package static func requestRealTimeForItself(priority: Int32 = soundPriority) -> String? {
        var parameters = sched_param()
        parameters.sched_priority = priority
        // With a pid of 0 the call sets the calling thread, not the process.
        guard sched_setscheduler(0, SCHED_RR | resetOnFork, &parameters) == 0 else {
            return String(cString: strerror(errno))
        }
        return nil
    }

    /// Moves `thread` (of this process) into the class ``requestRealTimeForItself(priority:)`` asks
    /// for, or back into the normal class: for a thread whose work is not always on time (a loader
    /// that decodes for seconds) while something on time waits for it, asked by the waiting thread.
    /// - Returns: `nil` when done, else why not (the error's text).
    package static func setRealTime(
        _ realTime: Bool, of thread: pthread_t, priority: Int32 = soundPriority
    ) -> String? {
        var parameters = sched_param()
        parameters.sched_priority = realTime ? priority : 0
        // Glibc hands the policy to sched_setscheduler as it is, SCHED_RESET_ON_FORK included.
        let policy = realTime ? SCHED_RR | resetOnFork : SCHED_OTHER
        let result = pthread_setschedparam(thread, policy, &parameters)
        return result == 0 ? nil : String(cString: strerror(result))
    }

    /// Runs `body` with the calling thread asking for SCHED_RR at `priority` (``requestRealTime(priority:)``),
    /// then puts the thread's class back: the threads a library starts inside `body` (OpenAL Soft's
    /// mixer, libpulse's mainloop) inherit the class, as they would from a desktop's real-time caller.
    /// - Returns: `body`'s result, and why the class was refused (`nil`: granted).
    package static func withRealTime<T, E: Error>(
        priority: Int32, _ body: () throws(E) -> T
    ) throws(E) -> (T, refused: String?) {
        var policy: Int32 = 0
        var previous = sched_param()
        let saved = pthread_getschedparam(pthread_self(), &policy, &previous) == 0
        let refused = requestRealTime(priority: priority)
        defer { if refused == nil, saved { _ = pthread_setschedparam(pthread_self(), policy, &previous) } }
        return (try body(), refused)
    }

    /// Names the calling thread through `/proc/thread-self/comm` (`pthread_setname_np` needs
    /// `_GNU_SOURCE`, which Swift's Glibc module does not define); the kernel keeps 15 bytes.
    private static func setCurrentName(_ name: String) {
        let file = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard file >= 0 else { return }
        defer { close(file) }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { write(file, $0.baseAddress, $0.count) }
    }

    /// What the new thread needs, handed over through `pthread_create`'s one pointer.
    private final class Box: Sendable {
        let body: @Sendable () -> Void
        let name: String?
        init(body: @escaping @Sendable () -> Void, name: String?) {
            self.body = body
            self.name = name
        }
    }
}
