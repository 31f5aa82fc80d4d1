import SoundStation

/// Writes a note as Ogg Vorbis through SoundStation's incremental encoder, whose file decodes up to
/// its last flushed page at any moment.
final class OggNoteWriter: NoteWriter {
    let path: String
    private let encoder: VorbisEncoder
    private let sampleRate: Int

    init(path: String, settings: VoiceNoteSettings) throws(VoiceNoteError) {
        self.path = path
        sampleRate = settings.sampleRate
        do {
            // A fresh serial per note keeps two notes joined with `cat` a valid chained stream.
            encoder = try VorbisEncoder(
                path: path, sampleRate: settings.sampleRate, channels: settings.channels,
                quality: settings.quality.vorbisQuality, serialNumber: Int32.random(in: 1...Int32.max))
        } catch {
            throw Self.translate(error, path: path, keptSeconds: 0)
        }
    }

    var bytesWritten: Int { encoder.bytesWritten }

    func write(_ samples: [Float]) throws(VoiceNoteError) {
        do {
            try encoder.write(samples)
        } catch {
            throw Self.translate(error, path: path, keptSeconds: keptSeconds)
        }
    }

    func flush() throws(VoiceNoteError) {
        do {
            try encoder.flush()
        } catch {
            throw Self.translate(error, path: path, keptSeconds: keptSeconds)
        }
    }

    func finish() throws(VoiceNoteError) {
        do {
            try encoder.finish()
        } catch {
            throw Self.translate(error, path: path, keptSeconds: keptSeconds)
        }
    }

    private var keptSeconds: Double { Double(encoder.framesWritten) / Double(sampleRate) }

    private static func translate(_ error: AudioEncodingError, path: String, keptSeconds: Double)
        -> VoiceNoteError
    {
        switch error {
        case .cannotCreate(_, let reason): .cannotCreateFile(path: path, reason: reason)
        case .writeFailed(_, let reason): .writeFailed(path: path, reason: reason, keptSeconds: keptSeconds)
        case .invalidSettings(let reason): .invalidSettings(reason: reason)
        }
    }
}
