import Glibc
import SoundStation

/// One finished note in a ``VoiceNoteLibrary``: its file and what the list shows about it.
public struct VoiceNote: Sendable, Equatable, Hashable, Identifiable {
    /// The file name without its extension, e.g. `recording-1712345678`; what commands take.
    public let name: String
    /// The file name, e.g. `recording-1712345678.ogg`.
    public let fileName: String
    /// The full path of the file.
    public let path: String
    /// How it is encoded.
    public let format: VoiceNoteFormat
    /// When the recording ended (the file's modification time).
    public let date: VoiceNoteDate
    /// Its length.
    public let duration: Duration
    /// The file's size in bytes.
    public let byteCount: Int
    /// Frames per second.
    public let sampleRate: Int
    /// 1 or 2.
    public let channels: Int

    /// The file name identifies a note within its folder.
    public var id: String { fileName }

    /// Reads a note's facts from its file's headers, without decoding the audio.
    /// - Parameter path: A `.ogg` or `.wav` file.
    /// - Throws: ``VoiceNoteError/unreadable(path:reason:)`` when it is not a readable note.
    public init(path: String) throws(VoiceNoteError) {
        guard let modified = FileSystem.modificationTime(path),
            let size = ProcessEnvironment.fileSize(atPath: path)
        else {
            throw .unreadable(path: path, reason: "it cannot be found or read")
        }
        let info: AudioFileInfo
        do {
            info = try AudioDecoder.info(ofFileAt: path)
        } catch {
            throw .unreadable(path: path, reason: error.description)
        }
        let file = PathText.lastComponent(path)
        fileName = file
        name = file.lastIndex(of: ".").map { String(file[..<$0]) } ?? file
        self.path = path
        format = info.format == .wav ? .wav : .oggVorbis
        date = VoiceNoteDate(timeIntervalSince1970: modified)
        duration = info.duration
        byteCount = size
        sampleRate = info.sampleRate
        channels = info.channels
    }

    /// Newest first; notes finished in the same instant by name, later names first, so the order
    /// never depends on how the directory happens to list them.
    static func newestFirst(_ a: VoiceNote, _ b: VoiceNote) -> Bool {
        a.date != b.date ? a.date > b.date : a.fileName > b.fileName
    }
}
