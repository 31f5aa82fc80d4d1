import Dispatch
import SoundStation

/// A value set once by one thread and awaited by others, from async code or by blocking.
final class Completion<Value: Sendable>: Sendable {
    private struct State {
        var value: Value?
        var waiters: [CheckedContinuation<Value, Never>] = []
    }

    private let state = Locked(State())
    private let gate = DispatchSemaphore(value: 0)

    /// Sets the value and wakes every waiter; later calls are ignored.
    func complete(_ value: Value) {
        let waiters = state.withLock { state -> [CheckedContinuation<Value, Never>]? in
            guard state.value == nil else { return nil }
            state.value = value
            defer { state.waiters = [] }
            return state.waiters
        }
        guard let waiters else { return }
        for waiter in waiters { waiter.resume(returning: value) }
        gate.signal()
    }

    /// The value, if already set.
    var current: Value? { state.withLock { $0.value } }

    /// Blocks the calling thread until the value is set.
    func wait() -> Value {
        if let value = current { return value }
        gate.wait()
        // Pass the wake-up on, so every blocked waiter gets through.
        gate.signal()
        return current!
    }

    /// Suspends until the value is set.
    func value() async -> Value {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Value? in
                if let value = state.value { return value }
                state.waiters.append(continuation)
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
