/// A typed handle for a catalogue sound, usually a game's `String` enum.
///
/// This is the Linux take on "sound enums that know their bundle path": instead of asking a
/// platform bundle, the enum names a catalogue entry, and the catalogue knows the file.
///
/// ```swift
/// enum Music: String, SoundResource { case main, game }
/// let path = Music.main.bundlePath(in: catalogue)
/// ```
public protocol SoundResource: Sendable {
    /// The `name` of the catalogue entry this value stands for.
    var catalogueName: String { get }
}

extension SoundResource where Self: RawRepresentable, Self.RawValue == String {
    /// A string enum's raw value, so `case main` maps to the entry named "main".
    public var catalogueName: String { rawValue }
}

extension SoundResource {
    /// The absolute path of this sound's file, or nil if the catalogue has no such sound.
    /// - Parameter catalogue: The catalogue to look the entry up in.
    /// - Returns: The entry's ``SoundEntry/resolvedPath``, or nil when no entry has this name.
    public func bundlePath(in catalogue: Catalogue) -> String? {
        catalogue[catalogueName]?.resolvedPath
    }
}
