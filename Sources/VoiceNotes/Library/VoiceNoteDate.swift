import Glibc
import SoundStation

/// A moment on the wall clock, as seconds since 1970 UTC: when a note was finished.
///
/// Why not Foundation's `Date`: VoiceNotes imports no Foundation, so `voicenote` and `starfall` carry
/// only the Swift runtime (about 4 MB less each; see Docs/Packages.md, "Sizes"). It has `Date`'s
/// `timeIntervalSince1970`, so a game with Foundation makes one with
/// `Date(timeIntervalSince1970: note.date.timeIntervalSince1970)`.
public struct VoiceNoteDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Seconds since 1970-01-01 00:00:00 UTC.
    public let timeIntervalSince1970: Double

    /// The moment `seconds` after 1970-01-01 00:00:00 UTC.
    /// - Parameter seconds: Seconds since the epoch.
    public init(timeIntervalSince1970 seconds: Double) {
        timeIntervalSince1970 = seconds
    }

    /// Now, on the wall clock.
    public static var now: VoiceNoteDate { VoiceNoteDate(timeIntervalSince1970: FileSystem.secondsSince1970) }

    /// Earlier first.
    public static func < (lhs: VoiceNoteDate, rhs: VoiceNoteDate) -> Bool {
        lhs.timeIntervalSince1970 < rhs.timeIntervalSince1970
    }

    /// UTC, as `Date` prints itself: `2026-12-01 18:11:12 +0000`.
    public var description: String {
        var seconds = time_t(timeIntervalSince1970.rounded(.down))
        var parts = tm()
        guard gmtime_r(&seconds, &parts) != nil else { return "\(timeIntervalSince1970) s since 1970" }
        var buffer = [CChar](repeating: 0, count: 64)
        let length = strftime(&buffer, buffer.count, "%Y-%m-%d %H:%M:%S +0000", &parts)
        return String(decoding: buffer.prefix(length).map(UInt8.init(bitPattern:)), as: UTF8.self)
    }
}
