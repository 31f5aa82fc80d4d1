/// Names one playing sound. A handle outlives its sound safely: once the voice is reused for another
/// sound its generation changes, and calls with the old handle do nothing.
public struct VoiceHandle: Sendable, Hashable, CustomStringConvertible {
    let slot: Int32
    let generation: UInt32

    /// `voice#slot.generation`, for logs.
    public var description: String { "voice#\(slot).\(generation)" }
}
