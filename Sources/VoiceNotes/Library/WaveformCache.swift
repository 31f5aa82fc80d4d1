import Dispatch
import Glibc
import SoundStation

/// The notes folder's waveforms: measured once per note on a background queue, kept in memory and in
/// the folder's hidden `.waveforms` file, so a long list shows them at once the next time it opens.
///
/// An entry is valid while its note's size and modification time are those it was measured at; a
/// note written again is measured again. Writes are atomic (a temporary file renamed over the old),
/// and a cache file that cannot be read or written only costs measuring again.
///
/// The file is text, one note a line after a header (`voicenote-waveforms 2 CELLS`):
/// `SIZE MODIFIED LEVEL,LEVEL,... NAME`, numbers as Swift prints them (exact round trips), the name
/// last so it may hold spaces. (Version 1 was JSON; it is measured again. Text keeps VoiceNotes free
/// of Foundation's JSON coders, and so of FoundationEssentials.)
final class WaveformCache: Sendable {
    /// The hidden file in the notes folder (the library lists no file starting with `.`).
    static let fileName = ".waveforms"

    struct Entry: Equatable {
        var size: Int
        var modified: Double
        var waveform: VoiceNoteWaveform
    }

    /// The cache file's first line; another version or cell count is measured again.
    static let header = "voicenote-waveforms 2 \(VoiceNoteWaveform.defaultCells)"

    /// The entries of a cache file's text, or nil when it is not one this version wrote.
    static func parse(_ text: String) -> [String: Entry]? {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: true)[...]
        guard lines.popFirst() == Substring(header) else { return nil }
        var entries: [String: Entry] = [:]
        for line in lines {
            let fields = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false)
            guard fields.count == 4, let size = Int(fields[0]), let modified = Double(fields[1]) else {
                return nil
            }
            let levels = fields[2].split(separator: ",").compactMap { Double($0) }
            guard levels.count == VoiceNoteWaveform.defaultCells, !fields[3].isEmpty else { return nil }
            entries[String(fields[3])] = Entry(
                size: size, modified: modified, waveform: VoiceNoteWaveform(levels: levels))
        }
        return entries
    }

    /// A cache file's text for `entries`, sorted by name (so an unchanged cache writes the same bytes).
    static func format(_ entries: [String: Entry]) -> String {
        var text = header + "\n"
        for name in entries.keys.sorted() where !name.contains("\n") {
            let entry = entries[name]!
            let levels = entry.waveform.levels.map { String($0) }.joined(separator: ",")
            text += "\(entry.size) \(entry.modified) \(levels) \(name)\n"
        }
        return text
    }

    private struct State {
        var entries: [String: Entry] = [:]
        /// Notes queued or being measured, by file name.
        var pending: Set<String> = []
        /// Measured since the file was last written.
        var unsaved = 0
        /// How many notes this cache measured (rather than read), for tests.
        var measured = 0
    }

    private let directory: String
    private let state = Locked(State())
    /// One note at a time, below the UI's priority: the list's first rows (the newest) come first.
    private let queue = DispatchQueue(label: "VoiceNotes waveforms", qos: .utility)

    /// Reads the folder's cache file, if there is a usable one.
    init(directory: String) {
        self.directory = directory
        if let bytes = FileSystem.read(directory + "/" + Self.fileName),
            let entries = Self.parse(String(decoding: bytes, as: UTF8.self))
        {
            state.withLock { $0.entries = entries }
        }
    }

    /// How many notes were measured rather than read from the cache.
    var measuredCount: Int { state.withLock { $0.measured } }

    /// The note's waveform if it is measured and still valid; otherwise nil, and the note is queued
    /// to be measured (once, however often it is asked for).
    func waveform(for note: VoiceNote) -> VoiceNoteWaveform? {
        let queued = state.withLock { state -> Bool in
            if let entry = state.entries[note.fileName], entry.size == note.byteCount,
                entry.modified == note.date.timeIntervalSince1970
            {
                return false
            }
            return state.pending.insert(note.fileName).inserted
        }
        if queued {
            queue.async { [weak self] in self?.measure(note) }
            return nil
        }
        return state.withLock { state in
            guard let entry = state.entries[note.fileName], entry.size == note.byteCount,
                entry.modified == note.date.timeIntervalSince1970
            else { return nil }
            return entry.waveform
        }
    }

    /// Keeps a renamed note's entry under its new name (a rename keeps the size and the time).
    func renamed(_ oldName: String, to newName: String) {
        state.withLock { state in
            state.entries[newName] = state.entries.removeValue(forKey: oldName)
            state.unsaved += 1
        }
        queue.async { [weak self] in self?.save() }
    }

    /// Forgets a deleted note.
    func removed(_ fileName: String) {
        state.withLock { state in
            if state.entries.removeValue(forKey: fileName) != nil { state.unsaved += 1 }
        }
        queue.async { [weak self] in self?.save() }
    }

    /// Measures one note on the queue and keeps the result; a note that cannot be decoded gets a
    /// floor-level waveform, so it is not measured again until it changes.
    private func measure(_ note: VoiceNote) {
        let waveform =
            (try? VoiceNoteWaveform(fileAt: note.path))
            ?? VoiceNoteWaveform(
                levels: Array(repeating: InputLevel.floor, count: VoiceNoteWaveform.defaultCells))
        let saveNow = state.withLock { state -> Bool in
            state.entries[note.fileName] = Entry(
                size: note.byteCount, modified: note.date.timeIntervalSince1970, waveform: waveform)
            state.pending.remove(note.fileName)
            state.measured += 1
            state.unsaved += 1
            // Written when the queue runs dry, and every 16 notes of a long first pass.
            return state.pending.isEmpty || state.unsaved >= 16
        }
        if saveNow { save() }
    }

    /// Writes the entries of notes still in the folder. Runs on the queue.
    private func save() {
        let entries = state.withLock { state -> [String: Entry]? in
            guard state.unsaved > 0 else { return nil }
            state.unsaved = 0
            return state.entries
        }
        guard var entries else { return }
        entries = entries.filter { FileSystem.exists(directory + "/" + $0.key) }
        try? FileSystem.writeAtomically(Array(Self.format(entries).utf8), to: directory + "/" + Self.fileName)
    }
}
