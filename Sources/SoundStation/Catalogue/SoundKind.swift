/// What a sound is for; it picks the defaults an entry gets and the mixer bus it plays on.
public enum SoundKind: String, Sendable, CaseIterable {
    /// Short one-shots (UI clicks, hits, pickups); many may overlap.
    case effect
    /// Background tracks; normally one at a time and looping.
    case music
    /// Dialogue and announcer lines; one at a time so lines never talk over each other.
    case voice
}
