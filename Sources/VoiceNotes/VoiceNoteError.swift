/// Why a voice note could not be recorded, listed, renamed, deleted or played.
///
/// Every message names the file, folder or device involved and says what to do next.
public enum VoiceNoteError: Error, CustomStringConvertible, Equatable {
    /// The notes folder cannot be created or read.
    case folderUnavailable(path: String, reason: String)
    /// The capture device cannot be opened (`nil` is the default device).
    case cannotOpenDevice(device: String?, reason: String)
    /// The note's file cannot be created in the folder.
    case cannotCreateFile(path: String, reason: String)
    /// Writing failed part-way (a full disk, a lost mount); what was written up to then is kept.
    case writeFailed(path: String, reason: String, keptSeconds: Double)
    /// The capture device went away while recording; what was recorded is kept.
    case deviceDisconnected(device: String, path: String, keptSeconds: Double)
    /// The device delivered no audio at all, so no note was kept.
    case noAudio(device: String, waited: Double)
    /// A name that could leave the notes folder or is otherwise unusable.
    case invalidName(String, reason: String)
    /// No note of that name in the folder.
    case noSuchNote(name: String, folder: String)
    /// Renaming would overwrite another note.
    case nameTaken(name: String, folder: String)
    /// The note is still being recorded (its unfinished file is held by a recorder), so it cannot be
    /// played, renamed or deleted yet, nor can another note take its name.
    case beingRecorded(name: String, folder: String)
    /// The note's audio cannot be read.
    case unreadable(path: String, reason: String)
    /// Rate, channels or quality out of range.
    case invalidSettings(reason: String)
    /// ``VoiceNoteRecorder/start(seconds:)`` was called while a recording is running.
    case alreadyRecording(path: String)
    /// The engine could not play the note.
    case playbackFailed(path: String, reason: String)
    /// Renaming, deleting or finishing a file failed in the file system.
    case fileOperationFailed(path: String, operation: String, reason: String)
    /// A full-screen view was asked to run without a terminal.
    case notATerminal

    /// One line: what failed, on which file, folder or device, and what to do about it.
    public var description: String {
        switch self {
        case .folderUnavailable(let path, let reason):
            return "cannot use the voice notes folder '\(path)': \(reason). "
                + "Check that it is a writable directory, or pick another with --dir."
        case .cannotOpenDevice(let device, let reason):
            let which = device.map { "capture device \"\($0)\"" } ?? "the default capture device"
            return "cannot open \(which): \(reason). "
                + "List the devices with `voicenote devices` and pass one with --device."
        case .cannotCreateFile(let path, let reason):
            return "cannot create the voice note '\(path)': \(reason). "
                + "Check that the folder is writable and has free space, or pick another with --dir."
        case .writeFailed(let path, let reason, let kept):
            return "recording stopped: writing '\(path)' failed (\(reason)); "
                + "\(Self.seconds(kept)) recorded up to then were kept. Free disk space and record again."
        case .deviceDisconnected(let device, let path, let kept):
            return "recording stopped: capture device \"\(device)\" went away; "
                + "\(Self.seconds(kept)) were kept in '\(path)'. Reconnect it and record again."
        case .noAudio(let device, let waited):
            return
                "capture device \"\(device)\" delivered no audio in \(Self.seconds(waited)), so nothing was "
                + "kept. Check that it is not muted or suspended (`pactl list short sources`), or pick "
                + "another with --device."
        case .invalidName(let name, let reason):
            return "invalid note name \"\(name)\": \(reason). "
                + "Use a plain name such as \"meeting\" (no '/', no '..', not starting with '.')."
        case .noSuchNote(let name, let folder):
            return "no voice note named \"\(name)\" in '\(folder)'. List them with `voicenote list`."
        case .nameTaken(let name, let folder):
            return "a voice note named \"\(name)\" already exists in '\(folder)'. "
                + "Pick another name or delete that note first."
        case .beingRecorded(let name, let folder):
            return "the voice note \"\(name)\" in '\(folder)' is still being recorded. "
                + "Wait until that recording stops, or pick another name."
        case .unreadable(let path, let reason):
            return "cannot read the voice note '\(path)': \(reason)"
        case .invalidSettings(let reason):
            return "invalid recording settings: \(reason)"
        case .alreadyRecording(let path):
            return "already recording to '\(path)'; stop that recording first"
        case .playbackFailed(let path, let reason):
            return "cannot play '\(path)': \(reason). Check the output with `voicenote devices`."
        case .fileOperationFailed(let path, let operation, let reason):
            return "cannot \(operation) '\(path)': \(reason). Check the folder's permissions and free space."
        case .notATerminal:
            return "the voice notes screen needs a terminal on stdin and stdout; "
                + "use `voicenote record`, `list` and `play` in scripts"
        }
    }

    private static func seconds(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return "\(rounded) s"
    }
}
