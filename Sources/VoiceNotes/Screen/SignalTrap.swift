import Dispatch
import Glibc
import Synchronization

/// Catches termination signals while a terminal view runs, so it can restore the terminal (and
/// finish a recording) before the process ends.
///
/// While installed the signals do not kill the process: ``caught`` reports the first one, the view
/// leaves its loop and cleans up, and ``release(reraise:)`` lets the signal take its usual effect.
public final class SignalTrap: Sendable {
    private let signals: [Int32]
    private let first = CaughtSignal()
    private let sources: Mutex<[any DispatchSourceSignal]>

    /// Starts catching `signals`.
    /// - Parameter signals: SIGINT, SIGTERM and SIGHUP by default.
    public init(signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]) {
        self.signals = signals
        var made: [any DispatchSourceSignal] = []
        for number in signals {
            // Ignored at the process level so the default action (exit) does not run; the dispatch
            // source still sees each delivery.
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [first] in first.record(number) }
            source.resume()
            made.append(source)
        }
        sources = Mutex(made)
    }

    /// The first signal caught, if any.
    public var caught: Int32? {
        first.value
    }

    /// Stops catching; with `reraise`, a caught signal is raised again with its default action, so
    /// the process ends the way the sender meant.
    /// - Parameter reraise: Raise the caught signal after restoring the default actions.
    public func release(reraise: Bool) {
        let installed = sources.withLock { sources -> [any DispatchSourceSignal] in
            defer { sources = [] }
            return sources
        }
        guard !installed.isEmpty else { return }
        for source in installed { source.cancel() }
        for number in signals { signal(number, SIG_DFL) }
        guard reraise, let caught else { return }
        // Dispatch's worker threads block signals, and this may be one of them: unblock it here so
        // raise() delivers at once instead of leaving the signal pending on a thread that never takes it.
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, caught)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        raise(caught)
    }
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
