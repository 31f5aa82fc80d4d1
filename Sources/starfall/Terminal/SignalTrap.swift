import Glibc
import Synchronization

/// The last termination signal received, 0 for none. The handler only stores to it (an atomic store
/// is async-signal-safe); the game loop sees it within a tick and shuts down in order.
private let receivedSignal = Atomic<Int32>(0)

/// SIGINT, SIGTERM and SIGHUP turned into an orderly exit that restores the terminal.
enum SignalTrap {
    /// Installs the handlers (without SA_RESTART, so a waiting `poll` wakes up at once).
    static func install() {
        // Touch the global first: its lazy initialisation must not happen inside a handler.
        receivedSignal.store(0, ordering: .relaxed)
        for signal in [SIGINT, SIGTERM, SIGHUP] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                receivedSignal.store(number, ordering: .relaxed)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            sigaction(signal, &action, nil)
        }
    }

    /// The signal received so far, if any.
    static var pending: Int32? {
        let number = receivedSignal.load(ordering: .relaxed)
        return number == 0 ? nil : number
    }

    /// Ends the process by `signal` with its default action, as if the game had not caught it, so
    /// the parent shell sees the usual status; call it once the terminal is restored.
    static func reraise(_ signal: Int32) -> Never {
        Glibc.signal(signal, SIG_DFL)
        raise(signal)
        exit(128 + signal)
    }
}
