import Synchronization

/// A catalogue's sounds loaded into one engine: one shared buffer per sound, counted by its users.
///
/// Scenes load what they need before they start (``preload(_:progress:)``) and unload it when they
/// end; a sound two scenes share is decoded once and freed when the last of them unloads it. Looking
/// a sound up to play it is a dictionary read under a lock: no decoding ever happens there.
public final class SoundBank: Sendable {
    /// The engine the buffers live in.
    public let engine: AudioEngine
    /// Where the sounds are named and found.
    public let catalogue: Catalogue

    /// Music above this many bytes of PCM streams from its file even when the catalogue does not say
    /// `"stream": true` (16 MiB is about 43 s of 48 kHz stereo).
    public static let streamingThreshold = 16 << 20

    struct Loaded {
        var entry: SoundEntry
        /// The decoded sound, or `nil` for a track that streams from its file.
        var buffer: SoundBuffer?
        var users: Int
    }

    let loaded = Mutex<[String: Loaded]>([:])

    /// Creates an empty bank.
    /// - Parameters:
    ///   - engine: The engine to upload into.
    ///   - catalogue: The sounds that may be loaded.
    public init(engine: AudioEngine, catalogue: Catalogue) {
        self.engine = engine
        self.catalogue = catalogue
    }

    /// The loaded buffer for `name`, or `nil` when it is not loaded.
    /// - Parameter name: A catalogue name.
    /// - Returns: The shared buffer.
    public func buffer(named name: String) -> SoundBuffer? {
        loaded.withLock { $0[name]?.buffer }
    }

    /// Whether `name` is loaded to stream from its file rather than held decoded.
    /// - Parameter name: A catalogue name.
    /// - Returns: True for a loaded streamed track.
    public func isStreamed(_ name: String) -> Bool {
        loaded.withLock { $0[name].map { $0.buffer == nil } ?? false }
    }

    /// The loaded sound's catalogue entry and buffer (nil for a streamed track), for the stations.
    func lookup(_ name: String) -> (entry: SoundEntry, buffer: SoundBuffer?)? {
        loaded.withLock { table in table[name].map { ($0.entry, $0.buffer) } }
    }

    /// The names loaded now, sorted.
    public var loadedNames: [String] { loaded.withLock { $0.keys.sorted() } }

    /// Bytes of PCM the loaded sounds hold on the device.
    public var loadedBytes: Int {
        loaded.withLock { $0.values.reduce(0) { $0 + ($1.buffer?.byteCount ?? 0) } }
    }

    /// How many users hold `name` (0 when it is not loaded).
    /// - Parameter name: A catalogue name.
    /// - Returns: The use count.
    public func users(of name: String) -> Int { loaded.withLock { $0[name]?.users ?? 0 } }

    /// Loads one sound on the calling thread (decoding it if no one holds it yet) and counts one more
    /// user of it.
    /// - Parameter name: A catalogue name.
    /// - Throws: ``SoundLoadError`` naming the sound and its file.
    public func load(_ name: String) throws(SoundLoadError) {
        if retain(name) { return }
        let entry: SoundEntry
        do { entry = try catalogue.entry(named: name) } catch { throw .catalogue(error) }
        insert(Loaded(entry: entry, buffer: try Self.decodeAndUpload(entry, engine: engine), users: 1))
    }

    /// Counts one user fewer of `name`; the buffer is freed when none is left (voices still playing it
    /// keep it alive until they end).
    /// - Parameter name: A catalogue name.
    public func unload(_ name: String) {
        loaded.withLock { table in
            guard var item = table[name] else { return }
            item.users -= 1
            table[name] = item.users > 0 ? item : nil
        }
    }

    private func retain(_ name: String) -> Bool {
        loaded.withLock { table in
            guard var item = table[name] else { return false }
            item.users += 1
            table[name] = item
            return true
        }
    }

    /// Adds a freshly loaded sound, or, when another loader won the race, counts a user of theirs.
    private func insert(_ item: Loaded) {
        loaded.withLock { table in
            if var existing = table[item.entry.name] {
                existing.users += 1
                table[item.entry.name] = existing
            } else {
                table[item.entry.name] = item
            }
        }
    }

    /// Decodes and uploads an entry, or for long music checks that it opens and leaves it to stream.
    private static func decodeAndUpload(_ entry: SoundEntry, engine: AudioEngine) throws(SoundLoadError)
        -> SoundBuffer?
    {
        do {
            let options = entry.decodingOptions
            let info = try AudioDecoder.info(ofFileAt: entry.resolvedPath, options: options)
            let bytes = info.frameCount * info.channels * MemoryLayout<Float>.size
            // Every format streams; a module that loops by its song structure always does, since
            // its loop is the song's and not a range of frames.
            let songLoop = info.format.isTrackerModule && entry.loopsBySongStructure
            if entry.kind == .music, entry.stream || bytes > streamingThreshold || songLoop {
                return nil
            }
            let audio = try AudioDecoder.decode(fileAt: entry.resolvedPath, options: options)
            let loop = entry.loopRange(sampleRate: audio.sampleRate, frameCount: audio.frameCount)
            do {
                let path = entry.resolvedPath
                return try engine.makeBuffer(audio, name: entry.name, loopPoints: loop) {
                    try AudioDecoder.decode(fileAt: path, options: options)
                }
            } catch {
                throw SoundLoadError.engine(name: entry.name, error)
            }
        } catch let error as AudioDecodingError {
            throw .catalogue(.undecodable(name: entry.name, path: entry.path, reason: error.description))
        } catch let error as SoundLoadError {
            throw error
        } catch {
            throw .catalogue(.undecodable(name: entry.name, path: entry.path, reason: "\(error)"))
        }
    }
}
