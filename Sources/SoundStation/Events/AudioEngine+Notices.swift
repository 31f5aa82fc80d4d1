extension AudioEngine {
    /// Calls `handler` with one-line notices, such as that the device has no EFX (said once).
    /// - Parameter handler: Receives each notice, on a dispatch worker (never under the engine's
    ///   lock, so it may call the engine).
    /// - Returns: A subscription whose `cancel()` stops the calls.
    @discardableResult
    public func onNotice(_ handler: @escaping @Sendable (String) -> Void) -> EventSubscription {
        notices.add(handler)
    }
}
