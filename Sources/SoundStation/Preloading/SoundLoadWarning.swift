/// A sound that loaded although something is wrong with its file (e.g. it is cut short): what
/// plays is the part that is there.
public struct SoundLoadWarning: Sendable, Equatable, CustomStringConvertible {
    /// The catalogue name of the sound.
    public let name: String
    /// What the decoder said, naming the file.
    public let warning: AudioDecodingWarning

    /// Creates a warning about a sound.
    /// - Parameters:
    ///   - name: The catalogue name.
    ///   - warning: What the decoder said.
    public init(name: String, warning: AudioDecodingWarning) {
        self.name = name
        self.warning = warning
    }

    /// One line naming the sound, the file and what is wrong.
    public var description: String { "sound \"\(name)\": \(warning.description)" }
}
