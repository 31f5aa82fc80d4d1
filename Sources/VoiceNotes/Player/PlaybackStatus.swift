/// What a ``VoiceNotePlayer`` is doing, as one consistent snapshot.
public struct PlaybackStatus: Sendable, Equatable {
    /// The note being played or paused; nil when idle.
    public var note: VoiceNote?
    /// True while a note is loaded for playback, paused or not: a paused note is still "playing"
    /// (the screen shows it green).
    public var isPlaying = false
    /// True while that note is paused.
    public var isPaused = false
    /// The note's length.
    public var duration = Duration.zero

    /// Creates an idle status.
    public init() {}
}

/// The end of one playback, reported exactly once per ``VoiceNotePlayer/play(_:)``.
public struct PlaybackFinished: Sendable, Equatable {
    /// Why it ended.
    public enum Reason: String, Sendable, Equatable {
        /// It played to its last sample.
        case ended
        /// ``VoiceNotePlayer/stop()`` was called, another note was started, or the engine took the voice.
        case stopped
    }

    /// The note that was playing.
    public let note: VoiceNote
    /// Why it ended.
    public let reason: Reason
}
