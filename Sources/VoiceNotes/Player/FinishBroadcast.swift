import Foundation
import SoundStation

/// Hands each ``PlaybackFinished`` to every stream and closure that asked for it.
final class FinishBroadcast: Sendable {
    private struct Listeners {
        var streams: [UUID: AsyncStream<PlaybackFinished>.Continuation] = [:]
        var handlers: [@Sendable (PlaybackFinished) -> Void] = []
    }

    private let listeners = Locked(Listeners())

    func stream() -> AsyncStream<PlaybackFinished> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: PlaybackFinished.self, bufferingPolicy: .bufferingNewest(64))
        let id = UUID()
        listeners.withLock { $0.streams[id] = continuation }
        continuation.onTermination = { [weak self] _ in
            _ = self?.listeners.withLock { $0.streams.removeValue(forKey: id) }
        }
        return stream
    }

    func add(_ handler: @escaping @Sendable (PlaybackFinished) -> Void) {
        listeners.withLock { $0.handlers.append(handler) }
    }

    /// Delivers outside the lock, so a handler may call back into the player.
    func send(_ event: PlaybackFinished) {
        let (streams, handlers) = listeners.withLock { ($0.streams.values, $0.handlers) }
        for continuation in streams { continuation.yield(event) }
        for handler in handlers { handler(event) }
    }

    func finish() {
        let streams = listeners.withLock { $0.streams.values }
        for continuation in streams { continuation.finish() }
    }
}
