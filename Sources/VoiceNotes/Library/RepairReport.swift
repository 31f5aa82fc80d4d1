/// What happened to one unfinished recording when a ``VoiceNoteLibrary`` opened.
public struct RepairReport: Sendable, Equatable, CustomStringConvertible {
    /// How the repair went.
    public enum Outcome: Sendable, Equatable {
        /// The audio up to the last flushed page is now a complete note.
        case recovered
        /// Nothing had been recorded, so the empty file was removed.
        case removedEmpty
        /// The file holds no decodable audio; it was set aside under ``RepairReport/keptAs`` for a person to look at.
        case unrecoverable(reason: String)
    }

    /// The unfinished file's name, e.g. `recording-1712345678.ogg.part`.
    public let file: String
    /// The file name it now has: the note's, or the set-aside name; nil when removed.
    public let keptAs: String?
    /// Seconds of audio in the recovered note.
    public let kept: Duration
    /// How it went.
    public let outcome: Outcome

    /// Creates a report.
    /// - Parameters:
    ///   - file: The unfinished file's name.
    ///   - keptAs: Its new name, if it still exists.
    ///   - kept: How much audio was recovered.
    ///   - outcome: How it went.
    public init(file: String, keptAs: String?, kept: Duration, outcome: Outcome) {
        self.file = file
        self.keptAs = keptAs
        self.kept = kept
        self.outcome = outcome
    }

    /// One line for a log or a status bar.
    public var description: String {
        switch outcome {
        case .recovered:
            let seconds = (kept.inSeconds * 10).rounded() / 10
            return "recovered the unfinished recording \(file) as \(keptAs ?? file) (\(seconds) s kept)"
        case .removedEmpty:
            return "removed the unfinished recording \(file): it held no audio"
        case .unrecoverable(let reason):
            return "could not recover the unfinished recording \(file) (\(reason)); "
                + "it was set aside as \(keptAs ?? file)"
        }
    }
}
