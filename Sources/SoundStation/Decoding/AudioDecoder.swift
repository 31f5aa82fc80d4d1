/// The entry point for loading sounds: picks the decoder from the file's first bytes, so a
/// mislabelled extension still loads.
public enum AudioDecoder {
    /// Reads rate, channels and length from the headers only; cheap enough to call for every asset.
    /// - Parameter path: The file to inspect.
    public static func info(ofFileAt path: String) throws(AudioDecodingError) -> AudioFileInfo {
        let file = try InputFile(path: path)
        switch try detect(file.bytes(at: 0, count: 12), name: path) {
        case .wav:
            return try WAVLayout(of: file, name: path).info
        case .oggVorbis:
            return try VorbisFileDecoder(path: path).info
        }
    }

    /// Decodes a whole file into memory.
    /// - Parameter path: The WAV or Ogg Vorbis file.
    public static func decode(fileAt path: String) throws(AudioDecodingError) -> PCMAudio {
        let file = try InputFile(path: path)
        switch try detect(file.bytes(at: 0, count: 12), name: path) {
        case .wav:
            return try WAVDecoder.decode(bytes: file.readAll(), name: path)
        case .oggVorbis:
            return try VorbisFileDecoder(path: path).readAll()
        }
    }

    /// Decodes a whole file already in memory, e.g. from an asset pack.
    /// - Parameters:
    ///   - bytes: The file's contents.
    ///   - name: The file name to use in error messages.
    public static func decode(bytes: [UInt8], name: String) throws(AudioDecodingError) -> PCMAudio {
        switch try detect(Array(bytes.prefix(12)), name: name) {
        case .wav:
            return try WAVDecoder.decode(bytes: bytes, name: name)
        case .oggVorbis:
            return try VorbisFileDecoder(bytes: bytes, name: name).readAll()
        }
    }

    /// Identifies the container by magic bytes; the chosen decoder then reports what is wrong inside.
    static func detect(_ header: [UInt8], name: String) throws(AudioDecodingError) -> AudioFileFormat {
        if header.isEmpty {
            throw .unreadable(path: name, reason: "the file is empty (0 bytes)")
        }
        let magic = Array(header.prefix(4))
        if magic == Array("OggS".utf8) {
            return .oggVorbis
        }
        if magic == Array("RIFF".utf8) || magic == Array("RIFX".utf8) || magic == Array("RF64".utf8) {
            // WAVLayout explains RIFF variants and non-WAVE RIFF files precisely.
            return .wav
        }
        throw .unsupportedFormat(path: name, reason: "it is neither a WAV (RIFF/WAVE) nor an Ogg file")
    }
}
