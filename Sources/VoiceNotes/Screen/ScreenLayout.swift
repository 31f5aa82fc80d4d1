import Glibc
import SoundStation

/// Everything the voice notes screen shows, read once per frame so a frame is consistent.
struct ScreenModel {
    var folder: String
    var recording: RecordingStatus
    var notes: [VoiceNote]
    var selected: Int
    var playback: PlaybackStatus
    var playbackTime: Duration
    var message: String?
    /// What the keys do: the prompt line and the keys row follow it.
    var mode = ScreenMode.browsing
    /// The notes' waveforms measured so far, by file name; the others show placeholders.
    var waveforms: [String: VoiceNoteWaveform] = [:]
}

/// Lays the voice notes view out as terminal rows: title, status, record button, level meter, the list
/// (the playing note red, a paused one green), a prompt line (renaming, deleting), a message line and
/// the keys.
enum ScreenLayout {
    static let title = "Voice Notes"

    /// The rows of one frame.
    /// - Parameters:
    ///   - model: What to show.
    ///   - rows: The terminal's height; the list scrolls to keep the selection in view.
    static func lines(_ model: ScreenModel, rows: Int) -> [ScreenLine] {
        var lines: [ScreenLine] = [
            ScreenLine(" " + title, TextStyle(bold: true)),
            ScreenLine(" " + model.folder, TextStyle(dim: true)),
            ScreenLine(),
            status(model.recording),
            button(isRecording: model.recording.isRecording),
            meter(model.recording),
            ScreenLine(),
            ScreenLine(" Recordings (\(model.notes.count))", TextStyle(bold: true)),
        ]
        let footer = 3
        let room = max(1, rows - lines.count - footer)
        lines += list(model, room: room)
        while lines.count < max(rows - footer, lines.count) { lines.append(ScreenLine()) }
        lines.append(prompt(model.mode))
        lines.append(
            ScreenLine(model.message.map { " " + $0 } ?? "", TextStyle(foreground: TextStyle.yellow)))
        lines.append(ScreenLine(" " + model.mode.keys, TextStyle(dim: true)))
        return lines
    }

    /// The question the mode asks: the new name being typed, with its cursor, or whether to delete.
    private static func prompt(_ mode: ScreenMode) -> ScreenLine {
        switch mode {
        case .browsing:
            return ScreenLine()
        case .renaming(let note, let editor):
            var line = ScreenLine(" Rename \"\(note.name)\" to: ", TextStyle(bold: true))
            line.append(editor.beforeCursor)
            line.append(editor.underCursor, TextStyle(reverse: true))
            line.append(editor.afterCursor)
            return line
        case .confirmingDelete(let note):
            return ScreenLine(
                " Delete \"\(note.name)\" (\(note.duration.clockText), \(size(note.byteCount)))? y/n",
                TextStyle(bold: true, foreground: TextStyle.red))
        }
    }

    /// The whole frame as one write: cursor home, each row cleared to its end, the rest cleared.
    static func frame(_ lines: [ScreenLine], columns: Int, rows: Int) -> String {
        let visible = lines.prefix(rows).map { $0.rendered(width: columns - 1) + "\u{1B}[K" }
        return "\u{1B}[H" + visible.joined(separator: "\r\n") + "\u{1B}[J"
    }

    private static func status(_ recording: RecordingStatus) -> ScreenLine {
        guard recording.isRecording else { return ScreenLine(" Ready") }
        var line = ScreenLine(" * Recording", TextStyle(bold: true, foreground: TextStyle.red))
        guard recording.inputStarted else {
            line.append("  starting \(recording.device ?? "the device")...")
            return line
        }
        line.append("  \(recording.elapsed.clockText)  \(size(recording.bytesWritten))")
        if let name = recording.name { line.append("  \(name)", TextStyle(dim: true)) }
        return line
    }

    private static func button(isRecording: Bool) -> ScreenLine {
        var line = ScreenLine(" ")
        let label = isRecording ? " [r] Stop recording " : " [r] Start recording "
        line.append(
            label,
            TextStyle(
                bold: true, foreground: TextStyle.white,
                background: isRecording ? TextStyle.red : TextStyle.blue))
        return line
    }

    private static func meter(_ recording: RecordingStatus) -> ScreenLine {
        guard recording.isRecording else { return ScreenLine() }
        let width = 30
        let filled = Int((recording.level.meterFraction() * Double(width)).rounded())
        var line = ScreenLine(" Level [")
        // The last fifth of the bar (above -12 dB) turns yellow, warning of clipping ahead.
        let safe = min(filled, width * 4 / 5)
        line.append(String(repeating: "#", count: safe), TextStyle(foreground: TextStyle.green))
        line.append(String(repeating: "#", count: filled - safe), TextStyle(foreground: TextStyle.yellow))
        line.append(String(repeating: "-", count: width - filled), TextStyle(dim: true))
        line.append(
            "] " + String(cFormat: "%6.1f dB peak %6.1f dB RMS", recording.level.peak, recording.level.rms))
        return line
    }

    private static func list(_ model: ScreenModel, room: Int) -> [ScreenLine] {
        guard !model.notes.isEmpty else { return [ScreenLine("   No recordings yet. Press r to record.")] }
        let first = min(max(0, model.selected - room + 1), max(0, model.notes.count - room))
        return model.notes.indices.dropFirst(first).prefix(room).map { index in
            row(model.notes[index], selected: index == model.selected, model: model)
        }
    }

    private static func row(_ note: VoiceNote, selected: Bool, model: ScreenModel) -> ScreenLine {
        let isCurrent = model.playback.isPlaying && model.playback.note?.fileName == note.fileName
        var state = ""
        var style = TextStyle(reverse: selected)
        if isCurrent {
            let progress = "\(model.playbackTime.clockText)/\(model.playback.duration.clockText)"
            state = model.playback.isPaused ? "  paused \(progress)" : "  playing \(progress)"
            style.foreground = model.playback.isPaused ? TextStyle.green : TextStyle.red
            style.bold = true
        }
        let marker = selected ? " > " : "   "
        let name = note.name.count > nameWidth ? String(note.name.prefix(nameWidth - 1)) + "~" : note.name
        var line = ScreenLine(marker)
        line.append(name.padded(toLength: nameWidth + 1), style)
        // The waveform keeps its colours on the selected row too, so quiet and loud stay readable.
        if let waveform = model.waveforms[note.fileName] {
            line.append(waveform.blocks, TextStyle(foreground: isCurrent ? style.foreground : TextStyle.cyan))
        } else {
            line.append(String(repeating: "·", count: VoiceNoteWaveform.defaultCells), TextStyle(dim: true))
        }
        line.append(
            "  \(date(note.date))  \(note.duration.clockText.leftPadded(to: 7))  \(size(note.byteCount).leftPadded(to: 7))"
                + state, style)
        return line
    }

    /// Characters of a note's name in the list; longer names end in `~`. With the waveform, date,
    /// length, size and "playing m:ss.s/m:ss.s", a row fits in 100 columns.
    static let nameWidth = 20

    /// Bytes in B, KB or MB.
    static func size(_ bytes: Int) -> String {
        if bytes < 1_024 { return "\(bytes) B" }
        if bytes < 1_024 * 1_024 { return "\(Int((Double(bytes) / 1_024).rounded())) KB" }
        return String(cFormat: "%.1f MB", Double(bytes) / 1_048_576)
    }

    /// `yyyy-MM-dd HH:mm` in local time.
    static func date(_ date: VoiceNoteDate) -> String {
        LocalTime.text(secondsSince1970: date.timeIntervalSince1970, format: "%Y-%m-%d %H:%M")
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
