import Glibc
import Observation
import SoundStation

/// The voice notes in one folder, newest first, kept on disk.
///
/// Opening a library creates its folder (mode 0700: notes are private), repairs recordings a crash
/// left unfinished, and lists the notes newest first. Names given to ``note(named:)``,
/// ``rename(_:to:)`` and ``delete(_:)`` are checked so they can never reach outside the folder.
/// Safe to use from any thread.
@Observable
public final class VoiceNoteLibrary: Sendable {
    /// The folder's path.
    public let directory: String

    private struct State {
        var notes: [VoiceNote] = []
        var repairs: [RepairReport] = []
        var problems: [String] = []
    }

    private let state = Locked(State())
    private let waveforms: WaveformCache

    /// The process environment, the default of ``init(directory:environment:)`` (read through
    /// SoundStation, as VoiceNotes imports no Foundation).
    @usableFromInline
    static var processEnvironment: [String: String] { ProcessEnvironment.variables }

    /// Opens (creating if needed) a notes folder and repairs what a crash left unfinished.
    /// - Parameters:
    ///   - directory: The folder; nil for ``defaultDirectory(environment:)``.
    ///   - environment: Where `XDG_DATA_HOME` and `HOME` are read for the default folder.
    /// - Throws: ``VoiceNoteError/folderUnavailable(path:reason:)`` when the folder cannot be
    ///   created, is not a directory, or cannot be written.
    public init(
        directory: String? = nil, environment: [String: String] = VoiceNoteLibrary.processEnvironment
    ) throws(VoiceNoteError) {
        var path = directory ?? ""
        if directory == nil { path = try Self.defaultDirectory(environment: environment) }
        self.directory = PathText.standardized(path)
        try NotesFolder.prepare(self.directory)
        waveforms = WaveformCache(directory: self.directory)
        try refresh()
    }

    /// `$XDG_DATA_HOME/soundstation/voice-notes`, else `$HOME/.local/share/soundstation/voice-notes`.
    /// - Parameter environment: The variables to read.
    /// - Returns: The folder's path (not created here; ``init(directory:environment:)`` creates it).
    /// - Throws: ``VoiceNoteError/folderUnavailable(path:reason:)`` when neither variable is usable.
    public static func defaultDirectory(environment: [String: String]) throws(VoiceNoteError) -> String {
        // The XDG spec says a relative XDG_DATA_HOME is invalid and must be ignored.
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            return data + "/soundstation/voice-notes"
        }
        if let home = environment["HOME"], home.hasPrefix("/") {
            return home + "/.local/share/soundstation/voice-notes"
        }
        throw .folderUnavailable(
            path: "~/.local/share/soundstation/voice-notes", reason: "neither XDG_DATA_HOME nor HOME is set")
    }

    /// The notes, newest first.
    public var notes: [VoiceNote] {
        access(keyPath: \.notes)
        return state.withLock { $0.notes }
    }

    /// What the last ``refresh()`` (or opening) did to unfinished recordings.
    public var repairs: [RepairReport] {
        access(keyPath: \.notes)
        return state.withLock { $0.repairs }
    }

    /// Files with a note's extension that could not be read, each with the reason.
    public var problems: [String] {
        access(keyPath: \.notes)
        return state.withLock { $0.problems }
    }

    /// Reads the folder again, repairing unfinished recordings nobody is writing any more.
    /// - Returns: What was repaired, also kept in ``repairs``.
    /// - Throws: ``VoiceNoteError/folderUnavailable(path:reason:)`` when the folder's contents cannot
    ///   be listed (it was removed or its permissions changed); a note that cannot be read is not an
    ///   error but goes to ``problems``.
    @discardableResult
    public func refresh() throws(VoiceNoteError) -> [RepairReport] {
        let names: [String]
        do {
            names = try FileSystem.contentsOfDirectory(directory)
        } catch {
            throw .folderUnavailable(path: directory, reason: "its contents cannot be listed")
        }
        var repairs: [RepairReport] = []
        for name in names.sorted() where name.hasSuffix(".part") && !name.hasPrefix(".") {
            if let report = repairUnfinished(name) { repairs.append(report) }
        }
        var notes: [VoiceNote] = []
        var problems: [String] = []
        let current = (try? FileSystem.contentsOfDirectory(directory)) ?? names
        for name in current where !name.hasPrefix(".") {
            guard let format = NoteName.split(name).format, name.hasSuffix(format.fileExtension) else {
                continue
            }
            do {
                notes.append(try VoiceNote(path: path(of: name)))
            } catch {
                problems.append(error.description)
            }
        }
        notes.sort(by: VoiceNote.newestFirst)
        withMutation(keyPath: \.notes) {
            state.withLock { state in
                state.notes = notes
                state.repairs = repairs
                state.problems = problems
            }
        }
        return repairs
    }

    /// The note called `name` (with or without its extension).
    /// - Parameter name: A plain name from ``notes``.
    /// - Returns: The note, as last read by ``refresh()``.
    /// - Throws: ``VoiceNoteError/invalidName(_:reason:)`` for names that could escape the folder,
    ///   ``VoiceNoteError/beingRecorded(name:folder:)`` for a recording still running,
    ///   ``VoiceNoteError/noSuchNote(name:folder:)`` when there is none.
    public func note(named name: String) throws(VoiceNoteError) -> VoiceNote {
        try NoteName.validate(name)
        let (base, format) = NoteName.split(name)
        let found = notes.first { note in
            note.fileName == name || (format == nil && note.name == base)
        }
        guard let found else {
            if isBeingRecorded(base, format: format) { throw .beingRecorded(name: base, folder: directory) }
            throw .noSuchNote(name: name, folder: directory)
        }
        return found
    }

    /// Whether a recorder holds `base.EXT.part` (for any note format when `format` is nil).
    private func isBeingRecorded(_ base: String, format: VoiceNoteFormat?) -> Bool {
        let formats = format.map { [$0] } ?? VoiceNoteFormat.allCases
        return formats.contains { format in
            let part = path(of: base + "." + format.fileExtension + ".part")
            // The lock cannot be taken while a recorder (in any process) holds it.
            return FileSystem.exists(part) && PartFileLock(path: part) == nil
        }
    }

    /// A path for a command-line argument that is either a file (it contains `/` or exists) or the
    /// name of a note in this folder.
    /// - Parameter fileOrName: What the user typed.
    /// - Returns: The file's path as given, or the note's path in this folder.
    /// - Throws: ``VoiceNoteError/unreadable(path:reason:)`` for a file path that does not exist, or
    ///   the errors of ``note(named:)`` for a note name.
    public func resolve(_ fileOrName: String) throws(VoiceNoteError) -> String {
        if fileOrName.contains("/") || FileSystem.exists(fileOrName) {
            guard FileSystem.exists(fileOrName) else {
                throw .unreadable(path: fileOrName, reason: "there is no such file")
            }
            return fileOrName
        }
        return try note(named: fileOrName).path
    }

    /// Renames a note, keeping its extension; never replaces another note, nor takes the name of a
    /// recording still running.
    /// - Parameters:
    ///   - name: The note's current name.
    ///   - newName: A plain name; a matching extension may be included.
    /// - Returns: The renamed note.
    /// - Throws: ``VoiceNoteError/invalidName(_:reason:)`` for a name that is not a plain file name
    ///   or would change the extension, ``VoiceNoteError/nameTaken(name:folder:)`` when a note has
    ///   it, ``VoiceNoteError/beingRecorded(name:folder:)`` when a recording will, the errors of
    ///   ``note(named:)`` for `name`, and ``VoiceNoteError/fileOperationFailed(path:operation:reason:)``.
    @discardableResult
    public func rename(_ name: String, to newName: String) throws(VoiceNoteError) -> VoiceNote {
        let note = try note(named: name)
        try NoteName.validate(newName)
        let (base, format) = NoteName.split(newName)
        if let format, format != note.format {
            throw .invalidName(
                newName,
                reason: "it would change the file's extension to .\(format.fileExtension) "
                    + "but the note is \(note.format.displayName)")
        }
        let target = path(of: base + "." + note.format.fileExtension)
        guard target != note.path else { return note }
        // The recorder moves its finished file to this name without asking: do not be there first.
        if isBeingRecorded(base, format: note.format) { throw .beingRecorded(name: base, folder: directory) }
        // link() refuses an existing target, so a concurrent note of the same name is never replaced.
        if link(note.path, target) != 0 {
            if errno == EEXIST { throw .nameTaken(name: base, folder: directory) }
            throw .fileOperationFailed(path: note.path, operation: "rename", reason: RawFile.systemError())
        }
        unlink(note.path)
        waveforms.renamed(note.fileName, to: PathText.lastComponent(target))
        try refresh()
        return try VoiceNote(path: target)
    }

    /// Deletes a finished note's file; a recording still running is never deleted.
    /// - Parameter name: The note's name.
    /// - Throws: The errors of ``note(named:)`` (``VoiceNoteError/beingRecorded(name:folder:)`` for a
    ///   recording), and ``VoiceNoteError/fileOperationFailed(path:operation:reason:)``.
    public func delete(_ name: String) throws(VoiceNoteError) {
        let note = try note(named: name)
        guard unlink(note.path) == 0 else {
            throw .fileOperationFailed(path: note.path, operation: "delete", reason: RawFile.systemError())
        }
        waveforms.removed(note.fileName)
        withMutation(keyPath: \.notes) {
            state.withLock { $0.notes.removeAll { $0.fileName == note.fileName } }
        }
    }

    /// The note's loudness waveform, or nil while it is being measured.
    ///
    /// The first call for a note queues it to be measured on a background queue (one note at a time)
    /// and returns nil at once; later calls return it from memory, and later runs from the folder's
    /// hidden `.waveforms` file, for as long as the note keeps its size and modification time. A list
    /// view asks on every frame and draws placeholders until it arrives.
    /// - Parameter note: A note from ``notes``.
    /// - Returns: Its waveform of ``VoiceNoteWaveform/defaultCells`` cells, if measured.
    public func waveform(for note: VoiceNote) -> VoiceNoteWaveform? {
        waveforms.waveform(for: note)
    }

    /// How many notes this library measured rather than found in its cache.
    var measuredWaveforms: Int { waveforms.measuredCount }

    /// The full path of a file in the folder.
    func path(of fileName: String) -> String {
        directory + "/" + fileName
    }

    /// Adds a note that just got its final name, keeping the order.
    func insert(_ note: VoiceNote) {
        withMutation(keyPath: \.notes) {
            state.withLock { state in
                state.notes.removeAll { $0.fileName == note.fileName }
                state.notes.append(note)
                state.notes.sort(by: VoiceNote.newestFirst)
            }
        }
    }
}
