import Glibc
import Synchronization

/// Fans sound events out to every stream and closure that asked for them.
///
/// Events are sent after the mixer's step that made them, so a closure may call back into the engine.
final class EventHub: Sendable {
    private struct Subscribers {
        var streams: [SubscriptionID: AsyncStream<SoundEvent>.Continuation] = [:]
        var handlers: [SubscriptionID: @Sendable (SoundEvent) -> Void] = [:]
        /// Closures that asked for the device's events only (lost, restored), which the mixer
        /// builds whether anyone listens or not: they do not count as listeners, so the engine's
        /// own watchers do not make every trigger build and send the voices' events.
        var deviceHandlers: [SubscriptionID: @Sendable (SoundEvent) -> Void] = [:]
    }

    private let subscribers = Locked(Subscribers())
    /// Streams plus closures, read without the lock so the trigger path can skip building events
    /// nobody will receive.
    private let listeners = Atomic<Int>(0)

    /// Whether any stream or closure is subscribed.
    var isListening: Bool { listeners.load(ordering: .relaxed) > 0 }

    private func recount(_ subscribers: Subscribers) {
        listeners.store(subscribers.streams.count + subscribers.handlers.count, ordering: .relaxed)
    }

    func stream() -> AsyncStream<SoundEvent> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: SoundEvent.self, bufferingPolicy: .bufferingNewest(4096))
        let id = SubscriptionID()
        subscribers.withLock {
            $0.streams[id] = continuation
            recount($0)
        }
        continuation.onTermination = { [weak self] _ in
            self?.subscribers.withLock { subscribers in
                subscribers.streams.removeValue(forKey: id)
                self?.recount(subscribers)
            }
        }
        return stream
    }

    /// Adds `handler` for every event, or with `deviceOnly` for ``SoundEvent/deviceLost(reason:time:)``
    /// and ``SoundEvent/deviceRestored(device:time:)`` only.
    func add(
        _ handler: @escaping @Sendable (SoundEvent) -> Void, deviceOnly: Bool = false
    ) -> SubscriptionID {
        let id = SubscriptionID()
        subscribers.withLock {
            if deviceOnly {
                $0.deviceHandlers[id] = handler
            } else {
                $0.handlers[id] = handler
            }
            recount($0)
        }
        return id
    }

    func remove(_ id: SubscriptionID) {
        subscribers.withLock {
            $0.handlers.removeValue(forKey: id)
            $0.deviceHandlers.removeValue(forKey: id)
            recount($0)
        }
    }

    func send(_ events: [SoundEvent]) {
        guard !events.isEmpty else { return }
        let (streams, handlers, deviceHandlers) = subscribers.withLock {
            ($0.streams.values, $0.handlers.values, $0.deviceHandlers.values)
        }
        for event in events {
            for continuation in streams { continuation.yield(event) }
            for handler in handlers { handler(event) }
            switch event {
            case .deviceLost, .deviceRestored: for handler in deviceHandlers { handler(event) }
            default: break
            }
        }
    }

    /// Ends every stream and drops every closure (which may hold the engine: this breaks the cycle).
    func finish() {
        let streams = subscribers.withLock { subscribers in
            defer {
                subscribers = Subscribers()
                recount(subscribers)
            }
            return subscribers.streams.values
        }
        for continuation in streams { continuation.finish() }
    }
}
