/// Names one triggered sound. A handle outlives its sound safely: every trigger gets a ticket that is
/// never reused, so once the sound has ended (or was refused) calls with its handle do nothing.
///
/// A trigger hands its work to the mixing side and returns at once, so a handle exists before its
/// voice does: ``AudioEngine/isActive(_:)`` is false for a handle whose sound was refused (a
/// ``SoundEvent/refused(_:sound:time:)`` event says why) or has finished.
public struct VoiceHandle: Sendable, Hashable, CustomStringConvertible {
    /// The trigger's ticket: 1, 2, 3... per engine.
    public let ticket: UInt64

    init(ticket: UInt64) {
        self.ticket = ticket
    }

    /// The handle of a ticket: for a binding whose handles cross a C interface as the ticket alone.
    /// - Parameter ticket: A ticket an engine gave.
    /// - Returns: The handle.
    @_spi(Bindings) public static func bound(ticket: UInt64) -> VoiceHandle { VoiceHandle(ticket: ticket) }

    /// `voice#ticket`, for logs.
    public var description: String { "voice#\(ticket)" }
}
