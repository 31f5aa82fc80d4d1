/// Where a recording's samples go as they arrive: an encoder writing the note's unfinished file.
///
/// Owned by the recording thread alone, so implementations need no locking.
protocol NoteWriter: AnyObject {
    /// The unfinished file being written.
    var path: String { get }
    /// Bytes on disk so far.
    var bytesWritten: Int { get }
    /// Encodes interleaved samples and writes what is ready.
    func write(_ samples: [Float]) throws(VoiceNoteError)
    /// Puts everything encoded so far on disk, so a crash keeps it.
    func flush() throws(VoiceNoteError)
    /// Ends the file properly and closes it.
    func finish() throws(VoiceNoteError)
}

/// Makes the writer for a format.
enum NoteWriters {
    /// Creates the file at `path` and writes its headers.
    /// - Parameters:
    ///   - path: The unfinished file to create.
    ///   - settings: Rate, channels, quality and format.
    static func make(path: String, settings: VoiceNoteSettings) throws(VoiceNoteError) -> any NoteWriter {
        switch settings.format {
        case .oggVorbis: try OggNoteWriter(path: path, settings: settings)
        case .wav: try WAVNoteWriter(path: path, settings: settings)
        }
    }
}
