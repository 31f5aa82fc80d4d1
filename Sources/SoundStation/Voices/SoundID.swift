/// A loaded sound's integer identity: what the trigger path, the C interface and a signal handler use
/// instead of the sound's name, so starting it hashes no string.
///
/// A ``SoundBank`` gives each catalogue name one id the first time it loads it and keeps it for the
/// bank's life, so a game may look ids up once (``SoundBank/id(of:)-(String)``) and keep them;
/// ``AudioEngine/makeBuffer(_:name:loopPoints:)`` gives each buffer it makes an id of its own
/// (``SoundBuffer/id``).
public struct SoundID: Sendable, Hashable, CustomStringConvertible {
    /// The id as an integer, 0 or more: an index into the engine's tables.
    public let rawValue: Int32

    /// Wraps an integer id (from ``rawValue`` or the C interface).
    /// - Parameter rawValue: The id.
    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// `sound#id`, for logs.
    public var description: String { "sound#\(rawValue)" }
}
