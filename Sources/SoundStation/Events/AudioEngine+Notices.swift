extension AudioEngine {
    /// Calls `handler` with one-line notices, such as that the device has no EFX (said once).
    /// - Parameter handler: Receives each notice on the thread that gave it: the caller of a call
    ///   that dropped a command, a loader for a decoder's warning, a dispatch worker for the mixer's
    ///   own (never inside the mixer's turn), so it may call the engine; keep it short.
    /// - Returns: A subscription whose `cancel()` stops the calls.
    @discardableResult
    public func onNotice(_ handler: @escaping @Sendable (String) -> Void) -> EventSubscription {
        notices.add(handler)
    }
}
