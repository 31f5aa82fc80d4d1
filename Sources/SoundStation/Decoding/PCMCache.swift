import Glibc

/// Decoded sounds kept on disk, so that a game's second start reads its Ogg, FLAC, MP3 and module
/// files' samples back instead of decoding them again: loading then costs about what reading a file
/// costs.
///
/// An entry is named by what it was decoded from: a hash of the source file's contents (XXH64) and
/// its size, with the library's version and the ``DecodingOptions`` that shape the samples. An edited
/// file therefore never plays stale samples, and a new library version decodes afresh. Each entry
/// holds its own length and a hash of its samples, checked on every read: a torn, truncated or
/// damaged entry is deleted and the file decoded again. Entries are written to a temporary name and
/// renamed, so two processes loading the same sound at once never see half an entry. The folder is
/// kept under ``byteLimit``: after a write, the entries read least recently go first.
///
/// Plain PCM files (WAV, AIFF) are not cached: reading them is already reading samples. Neither is a
/// file whose decoding warned (one cut short), so its warning is given again on every load.
///
/// Where it writes: ``standard`` is `$XDG_CACHE_HOME/soundstation/pcm` (`~/.cache/soundstation/pcm`
/// when `XDG_CACHE_HOME` is unset). `SOUNDSTATION_PCM_CACHE=off` turns it off and an absolute path
/// there chooses another folder, for a game in any language and for the player alike.
/// A cache that cannot be written (a read-only home) only means sounds are decoded each time.
package struct PCMCache: Sendable, Equatable {
    /// The folder of the entries; made when the first entry is written.
    package var directory: String
    /// The most the folder's entries may take together, in bytes.
    package var byteLimit: Int

    /// 512 MiB: about 23 minutes of 48 kHz stereo, far more than a game's preloaded sounds.
    package static let defaultByteLimit = 512 << 20

    /// A cache in `directory`.
    /// - Parameters:
    ///   - directory: The folder for the entries (created when needed).
    ///   - byteLimit: The most the entries may take together; a sound bigger than this is not cached.
    package init(directory: String, byteLimit: Int = PCMCache.defaultByteLimit) {
        self.directory = directory
        self.byteLimit = byteLimit
    }

    /// The cache the environment asks for (see ``fromEnvironment(_:)``): what a ``SoundBank`` uses
    /// unless the game passes another or `nil`.
    package static var standard: PCMCache? { fromEnvironment(ProcessEnvironment.variables) }

    /// The cache `environment` asks for: none when `SOUNDSTATION_PCM_CACHE` is `off` (or `0`, `no`,
    /// `false`); that variable's folder when it holds an absolute path; otherwise
    /// `$XDG_CACHE_HOME/soundstation/pcm`, or `$HOME/.cache/soundstation/pcm`; none without either.
    /// - Parameter environment: The variables to read.
    /// - Returns: The cache, or `nil` for none.
    package static func fromEnvironment(_ environment: [String: String]) -> PCMCache? {
        if let setting = environment["SOUNDSTATION_PCM_CACHE"], !setting.isEmpty {
            if ["off", "0", "no", "false"].contains(setting.lowercased()) { return nil }
            if setting.hasPrefix("/") { return PCMCache(directory: setting) }
        }
        // The XDG base directory rules: a relative XDG_CACHE_HOME is ignored.
        if let base = environment["XDG_CACHE_HOME"], base.hasPrefix("/") {
            return PCMCache(directory: base + "/soundstation/pcm")
        }
        if let home = environment["HOME"], home.hasPrefix("/") {
            return PCMCache(directory: home + "/.cache/soundstation/pcm")
        }
        return nil
    }

    /// Decodes a whole file as ``AudioDecoder/decode(fileAt:options:)`` does, through the cache.
    /// - Parameters:
    ///   - path: The file.
    ///   - options: Channel handling and strictness (part of the entry's name).
    /// - Returns: The samples, bit for bit those decoding gives.
    /// - Throws: ``AudioDecodingError`` as decoding does; the cache itself never fails a load.
    package func decode(fileAt path: String, options: DecodingOptions = DecodingOptions())
        throws(AudioDecodingError)
        -> PCMAudio
    {
        let file = try InputFile(path: path)
        let format = try AudioDecoder.detect(file, name: path)
        if format == .wav || format == .aiff {
            return try AudioDecoder.decode(source: file, format: format, name: path, options: options)
        }
        let contents = try file.bytes(at: 0, count: file.byteCount)
        let key = Key(
            source: contents.withUnsafeBytes { XXHash64.xxh64($0) }, size: UInt64(contents.count),
            options: Self.tag(options))
        // A cancelled preload stops here rather than after reading a long entry back.
        try checkCancellation(path)
        if let cached = read(key) { return cached }
        let warned = Locked(false)
        var watched = options
        watched.warn = { warning in
            warned.withLock { $0 = true }
            options.warn(warning)
        }
        let audio = try AudioDecoder.decode(source: contents, format: format, name: path, options: watched)
        if !warned.withLock({ $0 }) { write(audio, key) }
        return audio
    }

    /// Deletes every entry (and the folder, when nothing else is in it).
    package func removeAll() {
        for name in entryNames() { unlink(directory + "/" + name) }
        rmdir(directory)
    }

    // MARK: - Entries

    /// What an entry was decoded from.
    struct Key: Equatable {
        var source: UInt64
        var size: UInt64
        var options: UInt64

        var fileName: String {
            [source, size, options].map { hex($0) }.joined(separator: "-") + ".pcm"
        }

        private func hex(_ value: UInt64) -> String {
            let digits = String(value, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }
    }

    /// The entry file's layout version; a new layout makes every old entry a miss.
    static let layoutVersion = 1
    /// "SSPCM" and the layout, the first 8 bytes of every entry.
    private static let magic = UInt64(littleEndianBytes: Array("SSPCM\0\0\u{1}".utf8))
    /// The header: magic, channels, sample rate, frames, the key's three parts, the samples' hash.
    static let headerBytes = 8 * 8

    /// What besides the file's bytes shapes the samples: the library (its decoders) and the options.
    package static func tag(_ options: DecodingOptions) -> UInt64 {
        XXHash64.xxh64(
            "soundstation-pcm \(layoutVersion) \(LibraryVersion.string) channels=\(options.channels.rawValue) "
                + "strict=\(options.strict)" + songTag(options))
    }

    /// The options that change a song's samples: the chiptune track, and the SoundFont a MIDI file
    /// plays through with its size and time (a SoundFont replaced under the same name changes the
    /// sound); empty for the defaults, so other files' tags stay as they were.
    private static func songTag(_ options: DecodingOptions) -> String {
        var tag = options.track == 1 ? "" : " track=\(options.track)"
        if let font = options.soundFont {
            var status = stat()
            let known = stat(font, &status) == 0
            tag += " soundfont=\(font)"
            if known { tag += " \(status.st_size) \(status.st_mtim.tv_sec).\(status.st_mtim.tv_nsec)" }
        }
        return tag
    }

    /// Where `key`'s entry lives.
    func path(of key: Key) -> String { directory + "/" + key.fileName }

    /// The entry for `key` when there is a sound one; a damaged one is deleted.
    func read(_ key: Key) -> PCMAudio? {
        let path = path(of: key)
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        guard let audio = Self.readEntry(fd, key) else {
            unlink(path)
            return nil
        }
        // Read just now: the last to go when the folder is trimmed.
        futimens(fd, nil)
        return audio
    }

    private static func readEntry(_ fd: Int32, _ key: Key) -> PCMAudio? {
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_size >= headerBytes else { return nil }
        var header = [UInt64](repeating: 0, count: headerBytes / 8)
        guard header.withUnsafeMutableBytes({ readFully(fd, $0, at: 0) }) else { return nil }
        header = header.map { UInt64(littleEndian: $0) }
        let channels = Int(header[1] & 0xFFFF_FFFF)
        let frames = header[3]
        guard header[0] == magic, channels == 1 || channels == 2, header[2] > 0, header[2] <= 1_000_000,
            frames < 1 << 40, Key(source: header[4], size: header[5], options: header[6]) == key,
            Int(status.st_size) == headerBytes + Int(frames) * channels * 4
        else { return nil }
        let count = Int(frames) * channels
        var intact = true
        let samples = [Float](unsafeUninitializedCapacity: count) { buffer, initialized in
            let bytes = UnsafeMutableRawBufferPointer(buffer)
            intact =
                readFully(fd, bytes, at: headerBytes)
                && XXHash64.xxh64(UnsafeRawBufferPointer(bytes)) == header[7]
            if !intact { bytes.initializeMemory(as: UInt8.self, repeating: 0) }
            initialized = count
        }
        guard intact else { return nil }
        return PCMAudio(sampleRate: Int(header[2]), channels: channels, samples: samples)
    }

    /// Writes `audio` as `key`'s entry, then trims the folder; any failure leaves no entry behind.
    func write(_ audio: PCMAudio, _ key: Key) {
        let payload = audio.samples.count * 4
        guard payload + Self.headerBytes <= byteLimit, audio.channels == 1 || audio.channels == 2 else {
            return
        }
        guard (try? FileSystem.createDirectory(directory)) != nil else { return }
        let temporary = directory + "/.tmp-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return }
        let samplesHash = audio.samples.withUnsafeBytes { XXHash64.xxh64($0) }
        let header = [
            Self.magic, UInt64(audio.channels), UInt64(audio.sampleRate), UInt64(audio.frameCount),
            key.source, key.size, key.options, samplesHash,
        ].map(\.littleEndian)
        let written =
            header.withUnsafeBytes { Self.writeFully(fd, $0) }
            && audio.samples.withUnsafeBytes { Self.writeFully(fd, $0) }
        guard close(fd) == 0, written, rename(temporary, path(of: key)) == 0 else {
            unlink(temporary)
            return
        }
        trim(keeping: key.fileName)
    }

    /// Deletes the least recently read entries until the folder (entries being written by others
    /// included) is within ``byteLimit`` (never `kept`, the one just written), and temporary files a
    /// crashed writer left an hour ago or more.
    private func trim(keeping kept: String) {
        var entries: [(name: String, size: Int, used: Int)] = []
        var total = 0
        let now = time(nil)
        for name in entryNames(includingTemporary: true) {
            var status = stat()
            guard stat(directory + "/" + name, &status) == 0 else { continue }
            if name.hasPrefix(".tmp-") {
                // Another writer's entry on its way counts until it is renamed (or left an hour).
                if now - status.st_mtim.tv_sec > 3_600 {
                    unlink(directory + "/" + name)
                } else {
                    total += Int(status.st_size)
                }
                continue
            }
            entries.append((name, Int(status.st_size), status.st_mtim.tv_sec))
            total += Int(status.st_size)
        }
        guard total > byteLimit else { return }
        for entry in entries.sorted(by: { $0.used < $1.used }) where entry.name != kept {
            unlink(directory + "/" + entry.name)
            total -= entry.size
            if total <= byteLimit { return }
        }
    }

    private func entryNames(includingTemporary: Bool = false) -> [String] {
        let names = (try? FileSystem.contentsOfDirectory(directory)) ?? []
        return names.filter { $0.hasSuffix(".pcm") || (includingTemporary && $0.hasPrefix(".tmp-")) }
    }

    private static func readFully(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer, at offset: Int)
        -> Bool
    {
        var done = 0
        while done < buffer.count {
            let count = pread(fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            done += count
        }
        return true
    }

    private static func writeFully(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) -> Bool {
        var done = 0
        while done < buffer.count {
            let count = Glibc.write(fd, buffer.baseAddress! + done, buffer.count - done)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            done += count
        }
        return true
    }
}

extension UInt64 {
    /// The value of 8 bytes in little-endian order.
    fileprivate init(littleEndianBytes bytes: [UInt8]) {
        self = bytes.prefix(8).enumerated().reduce(0) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
    }
}
