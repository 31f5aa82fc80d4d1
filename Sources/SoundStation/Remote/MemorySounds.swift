/// Where a sound made at run time came from, so a remote engine sends the player the smallest bytes
/// that give the same samples.
@_spi(Bindings) public enum MemorySoundOrigin: Sendable {
    /// Samples made in memory: sent as a 32-bit float WAV (lossless for ``PCMAudio``).
    case pcm
    /// An encoded file's bytes held in memory (`ss_load_memory`): sent as they are.
    case encoded([UInt8])
    /// A file on disk (`ss_load_file`): sent from the file.
    case file(String)
}

/// A memory sound's bytes, shared by reference between the link's catalogue and its pieces in flight
/// (a sound of several megabytes is not copied per piece).
final class MemoryFileBytes: Sendable {
    /// The file's bytes.
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }
}

/// A memory sound as a remote engine sends it: a file named by its content.
struct MemorySoundFile: Sendable {
    /// The SHA-256 of its bytes.
    let hash: ContentHash
    /// Its length.
    let size: Int
    /// `wav`, `ogg`, `flac`, `mp3`, `aiff`, or `bin` for what the player's decoder tells by its bytes.
    let ext: String
    /// The bytes, for a sound made or held in memory.
    let bytes: MemoryFileBytes?
    /// The file on disk, for a sound loaded from one.
    let path: String?

    /// The file for a sound of `origin` whose samples are `audio`; `nil` when a file on disk cannot
    /// be read any more.
    init?(_ audio: PCMAudio, origin: MemorySoundOrigin) {
        switch origin {
        case .pcm:
            let wav = WAVWriter.encode(audio, format: .float32)
            (hash, size, ext) = (ContentHash.of(wav), wav.count, "wav")
            (bytes, path) = (MemoryFileBytes(wav), nil)
        case .encoded(let encoded):
            (hash, size, ext) = (ContentHash.of(encoded), encoded.count, Self.ext(of: encoded))
            (bytes, path) = (MemoryFileBytes(encoded), nil)
        case .file(let file):
            guard let (hash, size) = ContentHash.ofFile(file, limit: 1 << 30) else { return nil }
            let last = PathText.lastComponent(file).lowercased()
            let named = last.split(separator: ".").last.map(String.init) ?? ""
            let usable =
                last.contains(".") && (1...5).contains(named.count)
                && named.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
            (self.hash, self.size, ext) = (hash, size, usable ? named : "bin")
            (bytes, path) = (nil, file)
        }
    }

    /// A file extension for encoded bytes, by their first bytes (the player's decoder goes by the
    /// bytes too; the extension only names the cached file).
    static func ext(of bytes: [UInt8]) -> String {
        func starts(_ text: String) -> Bool { bytes.starts(with: Array(text.utf8)) }
        if starts("RIFF") || starts("RIFX") || starts("RF64") { return "wav" }
        if starts("OggS") { return "ogg" }
        if starts("fLaC") { return "flac" }
        if starts("FORM") { return "aiff" }
        if starts("ID3") || (bytes.count > 1 && bytes[0] == 0xFF && bytes[1] & 0xE0 == 0xE0) { return "mp3" }
        return "bin"
    }
}

extension AudioEngine {
    /// Uploads `audio` as a sound with an id of its own, as ``makeBuffer(_:name:loopPoints:)`` does,
    /// saying where it came from: over SSH the player is sent the encoded bytes or the file rather than
    /// a WAV of the samples.
    /// - Parameters:
    ///   - audio: The decoded samples.
    ///   - name: The sound's name.
    ///   - origin: Its bytes before decoding.
    /// - Returns: The buffer.
    /// - Throws: ``AudioEngineError`` when OpenAL refuses the data.
    @_spi(Bindings) public func makeBuffer(_ audio: PCMAudio, name: String, origin: MemorySoundOrigin)
        throws(AudioEngineError) -> SoundBuffer
    {
        try makeBuffer(audio, name: name, loopPoints: nil, id: nil, origin: origin) { audio }
    }

    /// Sends a sound made at run time to the player's side of a remote session (nothing for other
    /// outputs). Hashing and, for samples, writing the WAV happen on the caller's thread: a sound
    /// made in memory is made while loading, and this costs what writing it to a file would.
    func offerToRemote(_ audio: PCMAudio, name: String, origin: MemorySoundOrigin) {
        guard let link = remoteLink.withLock({ $0 }), let file = MemorySoundFile(audio, origin: origin) else {
            return
        }
        link.offerMemory(name: name, file: file)
    }
}
