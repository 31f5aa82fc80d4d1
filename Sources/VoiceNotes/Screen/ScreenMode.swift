import TerminalKit

/// What the voice notes screen's keys do at the moment: move through the list, edit a note's new
/// name, or answer whether to delete a note.
enum ScreenMode: Equatable {
    /// Arrows select, Enter plays, `r` records, `n` renames, `d` deletes, `q` quits.
    case browsing
    /// Keys edit the note's new name on the prompt line; Enter renames, Escape cancels.
    case renaming(VoiceNote, LineEditor)
    /// `y` deletes the note, any other key keeps it.
    case confirmingDelete(VoiceNote)

    /// The keys this mode answers to, for the screen's last row.
    var keys: String {
        switch self {
        case .browsing:
            "r record/stop  Up/Down select  Enter play/pause  s stop  n rename  d delete  q quit"
        case .renaming: "type the new name  Enter rename  Esc cancel  Backspace erase  Left/Right move"
        case .confirmingDelete: "y delete  n or Esc keep"
        }
    }
}
