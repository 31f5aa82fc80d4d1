import SoundStation

/// Writes a note as 16-bit PCM WAV, appending samples as they arrive.
///
/// The header's sizes are brought up to date at every flush, so the file is a valid WAV up to the
/// last flush even if the recorder dies.
final class WAVNoteWriter: NoteWriter {
    let path: String
    private(set) var bytesWritten = 0
    private let file: RawFile
    private let sampleRate: Int
    private let channels: Int
    private var dataBytes = 0

    /// Bytes before the samples in the canonical header SoundStation's WAVWriter produces.
    static let headerSize = 44

    init(path: String, settings: VoiceNoteSettings) throws(VoiceNoteError) {
        self.path = path
        sampleRate = settings.sampleRate
        channels = settings.channels
        do {
            file = try RawFile(updating: path)
        } catch {
            guard case .fileOperationFailed(_, _, let reason) = error else { throw error }
            throw .cannotCreateFile(path: path, reason: reason)
        }
        // An empty clip gives the canonical 44-byte header with zero sizes, patched as data arrives.
        let header = WAVWriter.encode(
            PCMAudio(sampleRate: sampleRate, channels: channels, samples: []), format: .int16)
        try perform { () throws(RawFileError) in try file.write(header) }
        bytesWritten = header.count
    }

    func write(_ samples: [Float]) throws(VoiceNoteError) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(samples.count * 2)
        for sample in samples {
            let clamped = sample.isFinite ? min(max(sample, -1), 1) : 0
            let value = UInt16(bitPattern: Int16(clamping: Int((clamped * 32_768).rounded())))
            bytes.append(UInt8(truncatingIfNeeded: value))
            bytes.append(UInt8(truncatingIfNeeded: value >> 8))
        }
        try perform { () throws(RawFileError) in try file.write(bytes) }
        dataBytes += bytes.count
        bytesWritten += bytes.count
    }

    func flush() throws(VoiceNoteError) {
        try perform { () throws(RawFileError) in
            try WAVHeaderPatch.apply(dataBytes: dataBytes, to: file)
            try file.sync()
        }
    }

    func finish() throws(VoiceNoteError) {
        try flush()
        try perform { () throws(RawFileError) in try file.close() }
    }

    private func perform(_ body: () throws(RawFileError) -> Void) throws(VoiceNoteError) {
        do {
            try body()
        } catch {
            let kept = Double(dataBytes / (2 * channels)) / Double(sampleRate)
            throw .writeFailed(path: path, reason: error.reason, keptSeconds: kept)
        }
    }
}

/// Writes the RIFF and data sizes of a canonical 44-byte WAV header.
enum WAVHeaderPatch {
    static func apply(dataBytes: Int, to file: RawFile) throws(RawFileError) {
        try file.write(littleEndian(UInt32(clamping: dataBytes + WAVNoteWriter.headerSize - 8)), at: 4)
        try file.write(littleEndian(UInt32(clamping: dataBytes)), at: 40)
    }

    private static func littleEndian(_ value: UInt32) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}
