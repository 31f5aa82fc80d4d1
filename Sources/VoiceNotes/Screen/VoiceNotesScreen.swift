import Glibc
import SoundStation
import TerminalKit

/// The voice notes as a full-screen terminal view: a title, the status ("Recording" in
/// red, or "Ready"), a record button (key `r`), a level meter while recording, and the list of notes
/// (arrows move, Enter plays, pauses or resumes; the playing note red, a paused one green).
/// `n` renames the selected note on an inline line (Enter renames, Escape cancels; a name that is
/// taken or not a plain file name is refused with the reason shown) and `d` deletes it after a
/// `y` to "Delete ...? y/n". The last row always shows the keys.
///
/// ``run()`` takes over the terminal and returns when the user presses `q` or Esc, with the terminal
/// as it was. A game can open it from a menu:
///
/// ```swift
/// try VoiceNotesScreen(engine: engine).run()
/// ```
public final class VoiceNotesScreen {
    /// The notes listed.
    public let library: VoiceNoteLibrary
    /// Records new notes into ``library``.
    public let recorder: VoiceNoteRecorder
    /// Plays notes.
    public let player: VoiceNotePlayer

    private var selected = 0
    private var message: String?
    private var mode = ScreenMode.browsing
    private var wasRecording = false
    private var quit = false

    /// A screen over existing parts, e.g. ones a game also shows elsewhere.
    /// - Parameters:
    ///   - library: The notes listed.
    ///   - recorder: Records into `library`.
    ///   - player: Plays notes.
    public init(library: VoiceNoteLibrary, recorder: VoiceNoteRecorder, player: VoiceNotePlayer) {
        self.library = library
        self.recorder = recorder
        self.player = player
    }

    /// A screen with its own library, recorder and player.
    /// - Parameters:
    ///   - engine: Where notes play (on the voice bus).
    ///   - directory: The notes folder; nil for the default.
    ///   - settings: How notes are recorded.
    ///   - device: The capture device; nil for the default.
    /// - Throws: The errors of ``VoiceNoteLibrary/init(directory:environment:)``:
    ///   ``VoiceNoteError/folderUnavailable(path:reason:)`` when the notes folder cannot be found,
    ///   created, written or listed.
    public convenience init(
        engine: AudioEngine, directory: String? = nil, settings: VoiceNoteSettings = VoiceNoteSettings(),
        device: String? = nil
    ) throws(VoiceNoteError) {
        let library = try VoiceNoteLibrary(directory: directory)
        self.init(
            library: library,
            recorder: VoiceNoteRecorder(library: library, settings: settings, device: device),
            player: VoiceNotePlayer(engine: engine))
    }

    /// Shows the screen until `q` or Esc (or Ctrl-C); the terminal is restored whatever happens.
    /// A recording still running is finished and kept, and playback stops. SIGINT, SIGTERM and
    /// SIGHUP also end it cleanly, then take their usual effect.
    /// - Throws: ``VoiceNoteError/notATerminal`` when stdin or stdout is not a terminal.
    public func run() throws(VoiceNoteError) {
        guard RawTerminal.isTerminal(STDIN_FILENO), RawTerminal.isTerminal(STDOUT_FILENO) else {
            throw .notATerminal
        }
        let terminal = RawTerminal()
        let trap = SignalTrap()
        quit = false
        message = library.repairs.map(\.description).joined(separator: "; ").nonEmpty
        do {
            try terminal.enterRawMode(fullScreen: true)
        } catch {
            trap.release(reraise: false)
            throw .notATerminal
        }
        var lastFrame = ""
        while !quit && trap.caught == nil {
            collectFinishedRecording()
            let (columns, rows) = terminal.size()
            let frame = ScreenLayout.frame(
                ScreenLayout.lines(model(), rows: rows), columns: columns, rows: rows)
            if frame != lastFrame {
                terminal.write(frame)
                lastFrame = frame
            }
            for key in terminal.readKeys(timeout: 100) { handle(key) }
        }
        if recorder.isRecording { _ = try? recorder.stop() }
        player.stop()
        terminal.restore()
        trap.release(reraise: true)
    }

    /// What the next frame shows.
    func model() -> ScreenModel {
        let notes = library.notes
        selected = min(max(0, selected), max(0, notes.count - 1))
        return ScreenModel(
            folder: library.directory, recording: recorder.status, notes: notes, selected: selected,
            playback: player.status, playbackTime: player.currentTime, message: message, mode: mode,
            waveforms: waveforms(of: notes))
    }

    /// The waveforms measured so far; asking queues the others, newest (the top of the list) first.
    private func waveforms(of notes: [VoiceNote]) -> [String: VoiceNoteWaveform] {
        var measured: [String: VoiceNoteWaveform] = [:]
        for note in notes {
            if let waveform = library.waveform(for: note) { measured[note.fileName] = waveform }
        }
        return measured
    }

    /// Applies one key: to the line being edited or the question asked, else to the list.
    func handle(_ key: Key) {
        switch mode {
        case .renaming(let note, var editor):
            switch editor.handle(key) {
            case .editing: mode = .renaming(note, editor)
            case .cancelled:
                mode = .browsing
                message = "kept the name \(note.name)"
            case .submitted(let name): rename(note, to: name, editor: editor)
            }
        case .confirmingDelete(let note):
            mode = .browsing
            if key == .character("y") || key == .character("Y") {
                delete(note)
            } else {
                message = "kept \(note.name)"
            }
        case .browsing:
            browse(key)
        }
    }

    private func browse(_ key: Key) {
        switch key {
        case .character("q"), .character("Q"), .escape, .interrupt: quit = true
        case .character("r"), .character("R"): toggleRecording()
        case .up: selected -= 1
        case .down: selected += 1
        case .enter: playSelected()
        case .space: if player.isPlaying { player.togglePause() } else { playSelected() }
        case .character("s"), .character("S"): player.stop()
        case .character("n"), .character("N"):
            guard let note = selectedNote() else { return }
            mode = .renaming(note, LineEditor(text: note.name, limit: NoteName.maxBytes))
            message = nil
        case .character("d"), .character("D"):
            guard let note = selectedNote() else { return }
            mode = .confirmingDelete(note)
            message = nil
        default: break
        }
    }

    private func selectedNote() -> VoiceNote? {
        let notes = library.notes
        return notes.indices.contains(selected) ? notes[selected] : nil
    }

    /// Renames, selecting the note under its new name; a refused name keeps the line open with the
    /// reason shown, so it can be corrected.
    private func rename(_ note: VoiceNote, to name: String, editor: LineEditor) {
        do {
            let renamed = try library.rename(note.fileName, to: name)
            mode = .browsing
            selected = library.notes.firstIndex { $0.fileName == renamed.fileName } ?? selected
            message =
                renamed.fileName == note.fileName
                ? "kept the name \(note.name)" : "renamed \(note.name) to \(renamed.name)"
        } catch {
            mode = .renaming(note, editor)
            message = error.description
        }
    }

    /// Deletes a finished note, stopping it first if it plays. A recording still running is not in
    /// the list, and the library refuses it by name anyway.
    private func delete(_ note: VoiceNote) {
        if player.note?.fileName == note.fileName { player.stop() }
        do {
            try library.delete(note.fileName)
            message = "deleted \(note.fileName)"
        } catch {
            message = error.description
        }
    }

    private func toggleRecording() {
        if recorder.isRecording {
            finishRecording()
            return
        }
        do {
            let name = try recorder.start()
            wasRecording = true
            message = "recording \(name); press r to stop"
        } catch {
            message = error.description
        }
    }

    /// A recording that ended by itself (an error, such as a full disk) is collected here, so its
    /// message shows and its note joins the list.
    private func collectFinishedRecording() {
        if wasRecording && !recorder.isRecording { finishRecording() }
    }

    private func finishRecording() {
        wasRecording = false
        do {
            let note = try recorder.stop()
            selected = library.notes.firstIndex { $0.fileName == note.fileName } ?? 0
            message = "saved \(note.name) (\(note.duration.clockText))"
        } catch {
            message = error.description
            _ = try? library.refresh()
        }
    }

    private func playSelected() {
        let notes = library.notes
        guard notes.indices.contains(selected) else { return }
        let note = notes[selected]
        if player.isPlaying, player.note?.fileName == note.fileName {
            player.togglePause()
            return
        }
        do {
            try player.play(note)
            message = nil
        } catch {
            message = error.description
        }
    }
}

extension String {
    fileprivate var nonEmpty: String? { isEmpty ? nil : self }
}
