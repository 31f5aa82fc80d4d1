import Dispatch
import SoundStation

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The notes folder's waveforms: measured once per note on a background queue, kept in memory and in
/// the folder's hidden `.waveforms` file, so a long list shows them at once the next time it opens.
///
/// An entry is valid while its note's size and modification time are those it was measured at; a
/// note written again is measured again. Writes are atomic (a temporary file renamed over the old),
/// and a cache file that cannot be read or written only costs measuring again.
final class WaveformCache: Sendable {
    /// The hidden file in the notes folder (the library lists no file starting with `.`).
    static let fileName = ".waveforms"

    struct Entry: Codable, Equatable {
        var size: Int
        var modified: Double
        var waveform: VoiceNoteWaveform
    }

    private struct File: Codable {
        var version = 1
        var cells = VoiceNoteWaveform.defaultCells
        var notes: [String: Entry] = [:]
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
        let url = URL(fileURLWithPath: directory + "/" + Self.fileName)
        if let data = try? Data(contentsOf: url), let file = try? JSONDecoder().decode(File.self, from: data),
            file.version == 1, file.cells == VoiceNoteWaveform.defaultCells
        {
            state.withLock { $0.entries = file.notes }
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
        entries = entries.filter { FileManager.default.fileExists(atPath: directory + "/" + $0.key) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        guard let data = try? encoder.encode(File(notes: entries)) else { return }
        try? data.write(to: URL(fileURLWithPath: directory + "/" + Self.fileName), options: .atomic)
    }
}
