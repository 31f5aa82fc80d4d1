/// A group of sounds whose volume is set together, under the master bus.
public enum Bus: String, Sendable, CaseIterable, Hashable {
    /// Scales everything, including the other buses.
    case master
    /// Background tracks.
    case music
    /// One-shot game effects.
    case effects
    /// Voice notes and speech.
    case voice
}
