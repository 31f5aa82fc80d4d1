import Glibc

/// Fans values out to every stream and closure that asked for them: the music station's beats, a
/// voice-note player's ends. Values are sent outside the lock, so a handler may call back in.
package final class Broadcast<Value: Sendable>: Sendable {
    private struct Subscribers {
        var streams: [SubscriptionID: AsyncStream<Value>.Continuation] = [:]
        var handlers: [SubscriptionID: @Sendable (Value) -> Void] = [:]
    }

    private let subscribers = Locked(Subscribers())

    /// An empty broadcast.
    package init() {}

    /// A new stream of every value sent from now on (the newest 4,096 are kept for a slow reader).
    package func stream() -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: Value.self, bufferingPolicy: .bufferingNewest(4096))
        let id = SubscriptionID()
        subscribers.withLock { $0.streams[id] = continuation }
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0.streams.removeValue(forKey: id) }
        }
        return stream
    }

    /// Calls `handler` with every value sent from now on, until the subscription is cancelled.
    package func add(_ handler: @escaping @Sendable (Value) -> Void) -> EventSubscription {
        let id = SubscriptionID()
        subscribers.withLock { $0.handlers[id] = handler }
        return EventSubscription { [weak self] in
            _ = self?.subscribers.withLock { $0.handlers.removeValue(forKey: id) }
        }
    }

    /// Sends `value` to everyone, outside the lock (a handler may subscribe or cancel).
    package func send(_ value: Value) {
        let (streams, handlers) = subscribers.withLock { ($0.streams.values, $0.handlers.values) }
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
