/// How a new track replaces the current one.
///
/// ```swift
/// try music.play(.game, transition: .crossfade(.milliseconds(500)))
/// ```
public enum MusicTransition: Sendable, Equatable {
    /// The old track stops and the new one starts at full volume, at once.
    case cut
    /// The old track stops at once; the new one fades in over the duration.
    case fadeIn(Duration)
    /// The old track fades out while the new one fades in, over the duration (equal power).
    case crossfade(Duration)

    /// The fade's length in seconds (0 for a cut), for the mixing side.
    var fadeSeconds: Double {
        switch self {
        case .cut: 0
        case .fadeIn(let duration), .crossfade(let duration): max(0, duration.inSeconds)
        }
    }
}
