/// How a new track replaces the current one.
public enum MusicTransition: Sendable, Equatable {
    /// The old track stops and the new one starts at full volume, at once.
    case cut
    /// The old track stops at once; the new one fades in over the given seconds.
    case fadeIn(Double)
    /// The old track fades out while the new one fades in, over the given seconds (equal power).
    case crossfade(Double)
}
