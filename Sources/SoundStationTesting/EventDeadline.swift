import Synchronization

/// A wait for events that ended without what it waited for: the deadline passed, or the stream
/// finished first. It names what did arrive, so a failing test says what happened instead.
public struct EventDeadlineExceeded: Error, CustomStringConvertible, Sendable {
    /// How long the wait was allowed.
    public let deadline: Duration
    /// Whether the stream finished (no event could come any more) before the deadline.
    public let streamFinished: Bool
    /// The events that did arrive, as text, in order.
    public let received: [String]

    /// One line: what ended the wait and the events seen.
    public var description: String {
        let why = streamFinished ? "the event stream finished" : "no matching event within \(deadline)"
        let count = received.count == 1 ? "1 event" : "\(received.count) events"
        let seen = received.isEmpty ? "no events" : "\(count): " + received.joined(separator: ", ")
        return "\(why); received \(seen)"
    }
}

extension AsyncStream where Element: Sendable {
    /// The next event that matches, waiting no longer than `deadline`, so a missing event fails a test
    /// instead of hanging it.
    ///
    /// ```swift
    /// let events = engine.events()
    /// _ = engine.play(beep)
    /// _ = try engine.render(frames: 48_000)
    /// let finished = try await events.nextEvent(within: .seconds(10)) {
    ///     if case .finished(_, "beep", .ended, _) = $0 { true } else { false }
    /// }
    /// ```
    ///
    /// Events before the match are consumed. The deadline is wall time; an offline engine has sent
    /// its events by the time `render` returns, so it only matters when the event never comes.
    /// - Parameters:
    ///   - deadline: The longest wait.
    ///   - matches: Says whether an event is the one waited for.
    /// - Returns: The first matching event.
    /// - Throws: ``EventDeadlineExceeded`` when the deadline passes or the stream finishes first.
    public func nextEvent(
        within deadline: Duration, where matches: @escaping @Sendable (Element) -> Bool
    ) async throws(EventDeadlineExceeded) -> Element {
        let events = try await collect(within: deadline) { events in events.last.map(matches) ?? false }
        return events[events.count - 1]
    }

    /// Every event until `done` says the collection is complete, waiting no longer than `deadline`.
    ///
    /// ```swift
    /// let events = try await stream.collect(within: .seconds(10)) { seen in
    ///     seen.count { if case .finished = $0 { true } else { false } } == 2
    /// }
    /// ```
    /// - Parameters:
    ///   - deadline: The longest wait.
    ///   - done: Called with the events so far after each new one; `true` ends the wait.
    /// - Returns: The events, in order, the last one the one that made `done` true.
    /// - Throws: ``EventDeadlineExceeded`` when the deadline passes or the stream finishes first.
    public func collect(
        within deadline: Duration, until done: @escaping @Sendable ([Element]) -> Bool
    ) async throws(EventDeadlineExceeded) -> [Element] {
        let seen = Seen<Element>()
        let outcome = await withTaskGroup(of: Outcome.self) { group in
            group.addTask {
                for await event in self where done(seen.append(event)) { return .done }
                return .finished
            }
            group.addTask {
                try? await Task.sleep(for: deadline)
                return .timedOut
            }
            let first = await group.next() ?? .timedOut
            group.cancelAll()
            return first
        }
        let events = seen.events
        guard outcome == .done else {
            throw EventDeadlineExceeded(
                deadline: deadline, streamFinished: outcome == .finished,
                received: events.map { String(describing: $0) })
        }
        return events
    }
}

/// How a wait ended.
private enum Outcome: Sendable { case done, finished, timedOut }

/// The events a wait has seen, shared between its reading task and the caller.
private final class Seen<Element: Sendable>: Sendable {
    private let list = Mutex<[Element]>([])

    /// Adds an event and returns every event so far.
    func append(_ event: Element) -> [Element] {
        list.withLock {
            $0.append(event)
            return $0
        }
    }

    var events: [Element] { list.withLock { $0 } }
}
