import Glibc

/// Fans values out to every stream and closure that asked for them: the music station's beats, a
/// voice-note player's ends. Values are sent outside the lock, so a handler may call back in.
package final class Broadcast<Value: Sendable>: Sendable {
    private struct Subscribers {
        var streams: [SubscriptionID: AsyncStream<Value>.Continuation] = [:]
        var handlers: [SubscriptionID: @Sendable (Value) -> Void] = [:]
        /// Values sent before anyone listened, while ``holding`` allows.
        var held: [Value] = []
        /// Whether anyone has listened yet.
        var heard = false
    }

    private let subscribers = Locked(Subscribers())
    private let holding: Int

    /// An empty broadcast.
    /// - Parameter holding: How many values sent before the first subscriber to keep for it (the
    ///   newest), so what an engine says while it opens reaches a handler added just after.
    package init(holding: Int = 0) {
        self.holding = holding
    }

    /// Gives the held values to the first subscriber.
    private func takeHeld() -> [Value] {
        subscribers.withLock { subscribers in
            guard !subscribers.heard else { return [] }
            subscribers.heard = true
            defer { subscribers.held = [] }
            return subscribers.held
        }
    }

    /// A new stream of every value sent from now on (the newest 4,096 are kept for a slow reader).
    package func stream() -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: Value.self, bufferingPolicy: .bufferingNewest(4096))
        let id = SubscriptionID()
        subscribers.withLock { $0.streams[id] = continuation }
        for value in takeHeld() { continuation.yield(value) }
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0.streams.removeValue(forKey: id) }
        }
        return stream
    }

    /// Calls `handler` with every value sent from now on, until the subscription is cancelled.
    package func add(_ handler: @escaping @Sendable (Value) -> Void) -> EventSubscription {
        let id = SubscriptionID()
        subscribers.withLock { $0.handlers[id] = handler }
        for value in takeHeld() { handler(value) }
        return EventSubscription { [weak self] in
            _ = self?.subscribers.withLock { $0.handlers.removeValue(forKey: id) }
        }
    }

    /// Sends `value` to everyone, outside the lock (a handler may subscribe or cancel).
    package func send(_ value: Value) {
        let (streams, handlers) = subscribers.withLock { subscribers in
            if !subscribers.heard && holding > 0 {
                subscribers.held.append(value)
                if subscribers.held.count > holding { subscribers.held.removeFirst() }
            }
            return (subscribers.streams.values, subscribers.handlers.values)
        }
        for continuation in streams { continuation.yield(value) }
        for handler in handlers { handler(value) }
    }

    /// Ends every stream and drops every closure.
    package func finish() {
        let streams = subscribers.withLock { subscribers in
            defer { subscribers = Subscribers() }
            return subscribers.streams.values
        }
        for continuation in streams { continuation.finish() }
    }
}
