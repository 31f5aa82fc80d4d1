import Synchronization

/// Names one stream or closure subscribed to a broadcast or the engine's events, so it can be removed.
///
/// A counter rather than Foundation's `UUID`: the package does not import Foundation (see
/// ``ProcessEnvironment``), and a process-wide count never repeats, which is all a key needs.
struct SubscriptionID: Hashable, Sendable {
    private static let next = Atomic<UInt64>(0)
    private let value: UInt64

    /// A new identifier, different from every other made in this process.
    init() {
        value = Self.next.add(1, ordering: .relaxed).newValue
    }
}
