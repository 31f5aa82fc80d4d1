import Dispatch
import Glibc
import Synchronization

/// Catches termination signals while a terminal program runs, so it can restore the terminal (and
/// finish what it was doing) before the process ends.
///
/// While installed the signals do not kill the process: ``caught`` reports the first one, the view
/// leaves its loop and cleans up, and ``release(reraise:)`` puts back the handlers that were there
/// before (a game's own, or the default) and lets the signal take its usual effect.
public final class SignalTrap: Sendable {
    private let first = CaughtSignal()
    private let sources: Mutex<[any DispatchSourceSignal]>
    private let previous: Mutex<[ReplacedHandler]>

    /// Starts catching `signals`.
    /// - Parameter signals: SIGINT, SIGTERM and SIGHUP by default; one the process ignores (as a
    ///   shell's background job ignores SIGINT) stays ignored.
    public init(signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]) {
        var made: [any DispatchSourceSignal] = []
        var replaced: [ReplacedHandler] = []
        deliveredSignal.store(0, ordering: .releasing)
        for number in signals {
            // Two ways in, because which one sees the signal depends on the threads' signal masks: a
            // plain handler runs when some thread has the signal unblocked (the usual case), and the
            // dispatch source (signalfd) sees it when every thread blocks it and it stays pending.
            let earlier = ReplacedHandler(number: number, replaced: Glibc.signal(number, recordDelivery))
            if earlier.isIgnored {
                // Ignored when we started (a shell's background job ignores SIGINT): leave it so.
                Glibc.signal(number, SIG_IGN)
                continue
            }
            replaced.append(earlier)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [first] in first.record(number) }
            source.resume()
            made.append(source)
        }
        sources = Mutex(made)
        previous = Mutex(replaced)
    }

    deinit {
        release(reraise: false)
    }

    /// The first signal caught, if any.
    public var caught: Int32? {
        let delivered = deliveredSignal.load(ordering: .acquiring)
        return first.value ?? (delivered == 0 ? nil : delivered)
    }

    /// Stops catching and restores the earlier handlers; with `reraise`, a caught signal is raised
    /// again, so the process ends (or the game's handler runs) the way the sender meant.
    /// - Parameter reraise: Raise the caught signal after restoring the handlers.
    public func release(reraise: Bool) {
        let installed = sources.withLock { sources -> [any DispatchSourceSignal] in
            defer { sources = [] }
            return sources
        }
        guard !installed.isEmpty else { return }
        // Cancelling is asynchronous, and dispatch may touch the signal's disposition as it
        // unregisters: wait for it, so the handlers restored below are the ones that stay.
        let cancelled = DispatchGroup()
        for source in installed {
            cancelled.enter()
            source.setCancelHandler { cancelled.leave() }
            source.cancel()
        }
        _ = cancelled.wait(timeout: .now() + 1)
        for replaced in previous.withLock({ $0 }) {
            Glibc.signal(replaced.number, replaced.handler)
        }
        guard reraise, let caught else { return }
        // Dispatch's worker threads block signals, and this may be one of them: unblock it here so
        // raise() delivers at once instead of leaving the signal pending on a thread that never takes it.
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, caught)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        raise(caught)
    }

    /// Ends the process by `signal` with its default action, as if it had never been caught, so the
    /// parent shell sees the usual status (e.g. 130 for SIGINT); call it once the terminal is restored.
    ///
    /// For a program that ends itself on a key that stands for a signal (Ctrl-C read in raw mode), or
    /// after ``release(reraise:)`` when the signal must not reach an earlier handler.
    /// - Parameter signal: The signal to end by, e.g. `SIGINT`.
    /// - Returns: Never: the process ends (with status 128 + `signal` should the signal not end it).
    public static func terminate(by signal: Int32) -> Never {
        Glibc.signal(signal, SIG_DFL)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, signal)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        raise(signal)
        exit(128 + signal)
    }
}

/// A signal's handler from before the trap, put back when it is released.
///
/// Kept as a bit pattern: SIG_IGN is the pointer value 1, which Swift also uses to mark "no value"
/// in an optional holding an optional function pointer, so an array of such handlers would stop
/// iterating at an ignored signal (as SIGINT is for a shell's background job).
private struct ReplacedHandler {
    let number: Int32
    private let bits: Int

    init(number: Int32, replaced: __sighandler_t?) {
        self.number = number
        bits = unsafeBitCast(replaced, to: Int.self)
    }

    var handler: __sighandler_t? { unsafeBitCast(bits, to: __sighandler_t?.self) }

    var isIgnored: Bool { bits == unsafeBitCast(SIG_IGN, to: Int.self) }
}

/// The signal the plain handler saw; the process has one set of handlers, so one flag serves.
private let deliveredSignal = Atomic<Int32>(0)

/// The plain signal handler: only an atomic store, which is safe inside a signal handler.
private func recordDelivery(_ number: Int32) {
    _ = deliveredSignal.compareExchange(expected: 0, desired: number, ordering: .acquiringAndReleasing)
}

/// The first signal number delivered; shared with the dispatch handlers.
private final class CaughtSignal: Sendable {
    private let number = Atomic<Int32>(0)

    func record(_ signal: Int32) {
        _ = number.compareExchange(expected: 0, desired: signal, ordering: .acquiringAndReleasing)
    }

    var value: Int32? {
        let value = number.load(ordering: .acquiring)
        return value == 0 ? nil : value
    }
}
