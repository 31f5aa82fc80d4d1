import Glibc
import SoundStation

/// The player's cache of game sounds received over SSH: one flat folder of files named by their
/// SHA-256 (`<64 hex digits>.<ext>`), so no name a server chooses is ever used as a path, a second
/// session with the same game sends only hashes, and a damaged file is found by hashing it again.
///
/// The folder is `$XDG_CACHE_HOME/soundstation` (`~/.cache/soundstation` without it), created
/// readable by its owner only. The cache keeps within ``maxBytes`` by removing the files used least
/// recently, and refuses any single file above ``maxFileBytes``.
public struct AssetCache: Sendable {
    /// One cached file.
    public struct Entry: Sendable, Equatable {
        /// Its content's hash.
        package var hash: ContentHash
        /// Its extension, which tells the decoders its format.
        public var ext: String
        /// Its length in bytes.
        public var size: Int
        /// When it was last stored or used.
        /// Seconds since 1970.
        public var used: Double
        /// Its file name in the cache.
        public var fileName: String { ext.isEmpty ? hash.hex : hash.hex + "." + ext }
    }

    /// The folder.
    public let directory: String
    /// The most bytes the whole cache holds (256 MiB by default).
    public let maxBytes: Int
    /// The longest file it takes (64 MiB by default).
    public let maxFileBytes: Int

    /// The default folder: `$XDG_CACHE_HOME/soundstation`, else `$HOME/.cache/soundstation`.
    /// - Parameter environment: The variables to read.
    /// - Returns: The folder's path.
    public static func defaultDirectory(
        environment: [String: String] = ProcessEnvironment.variables
    ) -> String {
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") { return cache + "/soundstation" }
        let home =
            environment["HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (getpwuid(getuid())?.pointee.pw_dir.map { String(cString: $0) } ?? "/")
        return home + "/.cache/soundstation"
    }

    /// Opens (creating it when missing) a cache folder.
    /// - Parameters:
    ///   - directory: The folder; ``defaultDirectory(environment:)`` by default.
    ///   - maxBytes: The cache's cap.
    ///   - maxFileBytes: One file's cap.
    /// - Throws: ``RemoteError/cache(path:reason:)`` when the folder cannot be made.
    public init(directory: String? = nil, maxBytes: Int = 256 << 20, maxFileBytes: Int = 64 << 20)
        throws(RemoteError)
    {
        let directory = directory ?? Self.defaultDirectory()
        do {
            try FileSystem.createDirectory(directory, mode: 0o700)
        } catch {
            throw .cache(path: directory, reason: "cannot create the folder (\(error))")
        }
        self.directory = directory
        self.maxBytes = maxBytes
        self.maxFileBytes = min(maxFileBytes, maxBytes)
    }

    /// Whether `ext` may end a cached file's name: 1 to 5 lowercase letters or digits.
    public static func isSafeExtension(_ ext: String) -> Bool {
        (1...5).contains(ext.utf8.count)
            && ext.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) }
    }

    /// Reads a cached file's name: `<hash>` or `<hash>.<ext>`; anything else is not the cache's.
    static func parse(fileName: String) -> (ContentHash, String)? {
        let parts = fileName.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let hash = ContentHash(hex: parts[0]) else { return nil }
        let ext = parts.count > 1 ? String(parts[1]) : ""
        guard ext.isEmpty || isSafeExtension(ext) else { return nil }
        return (hash, ext)
    }

    /// The cached files, most recently used first.
    /// - Returns: The files whose names are the cache's own; others in the folder are left alone.
    public func entries() -> [Entry] {
        let names = (try? FileSystem.contentsOfDirectory(directory)) ?? []
        var entries: [Entry] = []
        for name in names {
            guard let (hash, ext) = Self.parse(fileName: name) else { continue }
            var info = stat()
            guard lstat(directory + "/" + name, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
                continue
            }
            let used = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
            entries.append(Entry(hash: hash, ext: ext, size: Int(info.st_size), used: used))
        }
        return entries.sorted { $0.used > $1.used }
    }

    /// Hashes every cached file again and removes those whose content no longer matches its name.
    /// - Returns: The hashes of the files that are sound, most recently used first, and how many were
    ///   removed.
    package func verify() -> (sound: [ContentHash], removed: Int) {
        var sound: [ContentHash] = []
        var removed = 0
        for entry in entries() {
            let path = directory + "/" + entry.fileName
            if let (hash, _) = ContentHash.ofFile(path, limit: maxFileBytes), hash == entry.hash {
                sound.append(hash)
            } else {
                unlink(path)
                removed += 1
            }
        }
        return (sound, removed)
    }

    /// The path of a cached file with this hash and extension, checked by hashing it, or `nil`
    /// (a damaged file is removed so it is fetched again).
    /// - Parameters:
    ///   - hash: The content's hash.
    ///   - ext: The extension.
    /// - Returns: The path, whose modification time is touched so the file counts as recently used.
    package func verifiedPath(of hash: ContentHash, ext: String) -> String? {
        let path = directory + "/" + (ext.isEmpty ? hash.hex : hash.hex + "." + ext)
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        guard let (found, _) = ContentHash.ofFile(path, limit: maxFileBytes), found == hash else {
            unlink(path)
            return nil
        }
        utimes(path, nil)
        return path
    }

    /// Stores a file whose bytes hash to `hash`, then removes the least recently used files beyond the
    /// cap.
    /// - Parameters:
    ///   - data: The file's bytes.
    ///   - hash: The hash they must have.
    ///   - ext: The extension (``isSafeExtension(_:)``).
    /// - Throws: ``RemoteError`` when the bytes do not match, the file is too long, the extension is
    ///   not safe, or the file cannot be written.
    package func store(_ data: [UInt8], hash: ContentHash, ext: String) throws(RemoteError) {
        guard ext.isEmpty || Self.isSafeExtension(ext) else {
            throw .refused("extension \"\(ext)\" is not a plain one")
        }
        guard data.count <= maxFileBytes else {
            throw .refused(
                "a file of \(data.count) bytes is above the cache's \(maxFileBytes)-byte limit per file")
        }
        guard ContentHash.of(data) == hash else {
            throw .refused("the file's bytes do not match its hash \(hash.shortHex)")
        }
        let name = ext.isEmpty ? hash.hex : hash.hex + "." + ext
        let temporary = directory + "/.incoming-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .cache(path: temporary, reason: String(cString: strerror(errno))) }
        let written = data.withUnsafeBytes { bytes -> Bool in
            var done = 0
            while done < bytes.count {
                let count = write(fd, bytes.baseAddress! + done, bytes.count - done)
                if count < 0, errno == EINTR { continue }
                if count <= 0 { return false }
                done += count
            }
            return true
        }
        close(fd)
        guard written, rename(temporary, directory + "/" + name) == 0 else {
            unlink(temporary)
            throw .cache(
                path: directory + "/" + name, reason: "cannot write (\(String(cString: strerror(errno))))")
        }
        trim(keeping: hash)
    }

    /// The prefix of a file still arriving (`.partial-<hash>`), kept so a transfer cut off by the end of
    /// a session resumes where it stopped in the next.
    static let partialPrefix = ".partial-"

    private func partialPath(_ hash: ContentHash) -> String {
        directory + "/" + Self.partialPrefix + hash.hex
    }

    /// Files still arriving, and how many of their bytes are here.
    /// - Returns: At most `limit` of them, the most recently written first.
    package func partials(limit: Int = 16) -> [(hash: ContentHash, bytes: Int)] {
        let names = (try? FileSystem.contentsOfDirectory(directory)) ?? []
        var found: [(hash: ContentHash, bytes: Int, modified: Int)] = []
        for name in names where name.hasPrefix(Self.partialPrefix) {
            guard let hash = ContentHash(hex: name.dropFirst(Self.partialPrefix.count)) else { continue }
            var info = stat()
            guard lstat(directory + "/" + name, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
                continue
            }
            found.append((hash, Int(info.st_size), info.st_mtim.tv_sec))
        }
        return found.sorted { $0.modified > $1.modified }.prefix(limit).map { ($0.hash, $0.bytes) }
    }

    /// Appends a piece to a file still arriving; the piece must start where the bytes here end.
    /// - Parameters:
    ///   - data: The piece.
    ///   - hash: The whole file's hash.
    ///   - offset: Where the piece starts in the file.
    ///   - size: The whole file's length.
    /// - Returns: Whether the file is now whole.
    /// - Throws: ``RemoteError`` for a piece out of order, a file above ``maxFileBytes``, or a write
    ///   that fails.
    package func appendPiece(_ data: [UInt8], of hash: ContentHash, at offset: Int, size: Int)
        throws(RemoteError)
        -> Bool
    {
        guard size <= maxFileBytes else {
            throw .refused("a file of \(size) bytes is above the cache's \(maxFileBytes)-byte limit per file")
        }
        // Files arriving stay within two files' cap, however many a server starts.
        let arriving = partials(limit: .max).reduce(0) { $0 + $1.bytes }
        guard arriving + data.count <= 2 * maxFileBytes else {
            throw .refused("more than \(2 * maxFileBytes) bytes of files arriving at once")
        }
        let path = partialPath(hash)
        var info = stat()
        let have = lstat(path, &info) == 0 ? Int(info.st_size) : 0
        guard have == offset, offset + data.count <= size else {
            throw .refused("a piece at \(offset) of a file with \(have) bytes here")
        }
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .cache(path: path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        let written = data.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == data.count else { throw .cache(path: path, reason: "cannot write the piece") }
        return offset + data.count == size
    }

    /// Moves a whole file that arrived in pieces into the cache, once its bytes match its hash (else it
    /// is removed, to be sent again).
    /// - Parameters:
    ///   - hash: The file's hash.
    ///   - ext: Its extension.
    /// - Throws: ``RemoteError`` when the bytes do not match or the file cannot be moved.
    package func completePieces(of hash: ContentHash, ext: String) throws(RemoteError) {
        let path = partialPath(hash)
        defer { unlink(path) }
        guard ext.isEmpty || Self.isSafeExtension(ext) else {
            throw .refused("extension \"\(ext)\" is not a plain one")
        }
        guard let (found, _) = ContentHash.ofFile(path, limit: maxFileBytes), found == hash else {
            throw .refused("the file's bytes do not match its hash \(hash.shortHex)")
        }
        let name = ext.isEmpty ? hash.hex : hash.hex + "." + ext
        guard rename(path, directory + "/" + name) == 0 else {
            throw .cache(path: directory + "/" + name, reason: String(cString: strerror(errno)))
        }
        trim(keeping: hash)
    }

    /// The decoded-sound cache of the sounds played from this cache: the folder `decoded` in it, counted
    /// within ``maxBytes``: it takes at most a quarter of the cap, and no more than the files leave
    /// free when it is asked for (files stored later make room by removing files, counting it).
    package var pcmCache: PCMCache {
        let files = entries().reduce(0) { $0 + $1.size }
        return PCMCache(directory: pcmDirectory, byteLimit: max(0, min(maxBytes / 4, maxBytes - files)))
    }

    /// Not `pcm`: in the default folder that is the local games' decoded-sound cache
    /// (``PCMCache/standard``), which keeps a cap of its own.
    private var pcmDirectory: String { directory + "/decoded" }

    /// Bytes in the decoded-sound cache's folder.
    func pcmBytes() -> Int {
        let names = (try? FileSystem.contentsOfDirectory(pcmDirectory)) ?? []
        return names.reduce(0) { total, name in
            var info = stat()
            guard lstat(pcmDirectory + "/" + name, &info) == 0 else { return total }
            return total + Int(info.st_size)
        }
    }

    /// Removes the least recently used files until the cache (the decoded sounds in it included) is
    /// within ``maxBytes``.
    private func trim(keeping kept: ContentHash) {
        var total = pcmBytes()
        for entry in entries() {
            total += entry.size
            if total > maxBytes, entry.hash != kept {
                unlink(directory + "/" + entry.fileName)
                total -= entry.size
            }
        }
    }

    /// Removes every cached file.
    /// - Returns: How many files and bytes were removed.
    @discardableResult
    public func clear() -> (files: Int, bytes: Int) {
        var removed = (files: 0, bytes: 0)
        for entry in entries() where unlink(directory + "/" + entry.fileName) == 0 {
            removed.files += 1
            removed.bytes += entry.size
        }
        for partial in partials(limit: .max) where unlink(partialPath(partial.hash)) == 0 {
            removed.files += 1
            removed.bytes += partial.bytes
        }
        let decoded = pcmBytes()
        if decoded > 0 {
            removed.bytes += decoded
            PCMCache(directory: pcmDirectory).removeAll()
        }
        return removed
    }
}

/// Why the player's side of a remote session refused something or could not go on.
public enum RemoteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The cache folder or a file in it could not be made or written.
    case cache(path: String, reason: String)
    /// Something the server sent was refused (the reason says what).
    case refused(String)

    /// One line for the player.
    public var description: String {
        switch self {
        case .cache(let path, let reason): "sound cache \(path): \(reason)"
        case .refused(let reason): "refused from the server: \(reason)"
        }
    }
}
