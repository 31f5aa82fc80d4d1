import Foundation
import Synchronization
import Testing

@testable import TerminalKit

/// Counts deliveries to the handler a "game" installed before the screen ran.
private let gameHandlerCalls = Atomic<Int>(0)

/// Serialized: the tests change process-wide signal handlers.
@Suite("Signal trap", .serialized)
struct SignalTrapTests {
    @Test("a trapped signal is held back, then handed to the handler that was there before")
    func trapAndRestore() async throws {
        let gameHandler: @convention(c) (Int32) -> Void = { _ in
            gameHandlerCalls.add(1, ordering: .relaxed)
        }
        signal(SIGUSR2, gameHandler)
        defer { signal(SIGUSR2, SIG_DFL) }

        let trap = SignalTrap(signals: [SIGUSR2])
        #expect(trap.caught == nil)
        kill(getpid(), SIGUSR2)
        let deadline = ContinuousClock.now + .seconds(5)
        while trap.caught == nil && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(trap.caught == SIGUSR2)
        #expect(gameHandlerCalls.load(ordering: .relaxed) == 0, "the trap held the signal back")

        trap.release(reraise: true)
        #expect(gameHandlerCalls.load(ordering: .relaxed) == 1, "re-raised to the game's own handler")
        trap.release(reraise: true)
        #expect(gameHandlerCalls.load(ordering: .relaxed) == 1, "released once")
    }

    @Test("release puts back the default action, and an ignored signal stays ignored")
    func dispositions() {
        func current(_ number: Int32) -> Int {
            let handler = signal(number, SIG_DFL)
            signal(number, handler)
            return unsafeBitCast(handler, to: Int.self)
        }
        let ignored = unsafeBitCast(SIG_IGN, to: Int.self)
        signal(SIGUSR1, SIG_DFL)
        signal(SIGWINCH, SIG_IGN)
        defer { signal(SIGWINCH, SIG_DFL) }

        let trap = SignalTrap(signals: [SIGWINCH, SIGUSR1])
        #expect(current(SIGUSR1) != 0, "SIGUSR1 is caught while trapped")
        #expect(current(SIGWINCH) == ignored, "an ignored signal is left ignored")
        trap.release(reraise: false)
        #expect(current(SIGUSR1) == 0, "back to the default action")
        #expect(current(SIGWINCH) == ignored)
    }
}
