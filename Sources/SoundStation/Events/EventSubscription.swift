/// A closure registered with ``AudioEngine/onEvent(_:)``; cancel it to stop the calls.
public final class EventSubscription: Sendable {
    private let cancellation: Locked<(@Sendable () -> Void)?>

    init(_ cancel: @escaping @Sendable () -> Void) {
        cancellation = Locked(cancel)
    }

    /// Stops calling the closure and lets go of it (once; later calls do nothing).
    public func cancel() {
        let cancel = cancellation.withLock { value -> (@Sendable () -> Void)? in
            defer { value = nil }
            return value
        }
        cancel?()
    }
}
