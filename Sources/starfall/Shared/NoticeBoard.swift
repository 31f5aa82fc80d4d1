import CommandLineKit
import Glibc
import Synchronization

/// Messages for the player (no sound device, a sound that failed to load) that must survive a
/// full-screen display: front ends show the latest one, and every one reaches stderr, at once or,
/// while the terminal front end owns the screen, when it gives the screen back.
final class NoticeBoard: Sendable {
    private struct State {
        var all: [String] = []
        var unprinted: [String] = []
        var holding = false
    }

    private let state = Mutex(State())

    /// Records `line`, printing it to stderr unless printing is held.
    func post(_ line: String) {
        let printNow = state.withLock { state -> Bool in
            state.all.append(line)
            if state.holding { state.unprinted.append(line) }
            return !state.holding
        }
        if printNow { Self.printToStandardError(line) }
    }

    /// The most recent notice.
    var latest: String? { state.withLock { $0.all.last } }

    /// Keeps notices off stderr (while a full-screen display would garble them) until ``release()``.
    func hold() {
        state.withLock { $0.holding = true }
    }

    /// Prints what was held and prints later notices at once again.
    func release() {
        let held = state.withLock { state -> [String] in
            state.holding = false
            defer { state.unprinted = [] }
            return state.unprinted
        }
        for line in held { Self.printToStandardError(line) }
    }

    private static func printToStandardError(_ line: String) {
        StandardStream.error.write("starfall: notice: \(line.printable)\n")
    }
}
