/// A catalogue's sounds loaded into one engine: one shared buffer per sound, counted by its users.
///
/// Scenes load what they need before they start (``preload(_:progress:)``) and unload it when they
/// end; a sound two scenes share is decoded once and freed when the last of them unloads it. A
/// loaded sound has an integer id (``id(of:)-(String)``) that triggers it without touching the bank;
/// looking a name up is a dictionary read under the bank's lock, which never decodes, uploads or
/// frees a buffer while held.
public final class SoundBank: Sendable {
    /// The engine the buffers live in.
    public let engine: AudioEngine
    /// Where the sounds are named and found: the catalogue the bank was made with, or the one a
    /// ``watch(settle:)`` read since `catalogue.json` was edited.
    public var catalogue: Catalogue { currentCatalogue.withLock { $0 } }

    /// Music above this many bytes of PCM streams from its file even when the catalogue does not say
    /// `"stream": true` (16 MiB is about 43 s of 48 kHz stereo).
    public static let streamingThreshold = 16 << 20

    struct Loaded {
        /// The entry, the id (the same for the bank's life) and the decoded sound (`nil` for a track
        /// that streams from its file), as the stations take them.
        var found: Found
        var entry: SoundEntry { found.entry }
        var id: SoundID { found.id }
        var buffer: SoundBuffer? { found.buffer }
        var users: Int
        /// The file's rate and length (a buffer's own, for one held decoded), for the music's grid.
        var info: AudioFileInfo
        /// A layered track's stems, in catalogue order.
        var stems: [SoundBuffer] = []
        /// What the decoder said of a file that loaded anyway (e.g. one cut short).
        var warnings: [AudioDecodingWarning] = []
    }

    struct Table {
        var loaded: [String: Loaded] = [:]
        /// Every name ever loaded keeps its id, so ids a game resolved stay valid across reloads.
        var ids: [String: SoundID] = [:]
    }

    let table = Locked(Table())
    /// Replaced whole when `catalogue.json` is read again; apart from `table` so a reload that parses
    /// the manifest never holds up a lookup.
    let currentCatalogue: Locked<Catalogue>

    /// Where decoded sounds are kept between runs (``PCMCache``), or `nil` to decode every time.
    package let pcmCache: PCMCache?
    /// The files decoded so far, so entries on the same file share one decode and one device copy.
    let shares: DecodedShares

    /// A bank whose entries share decodes with other banks' (a remote player's sound systems).
    init(engine: AudioEngine, catalogue: Catalogue, pcmCache: PCMCache?, shares: DecodedShares) {
        self.engine = engine
        self.currentCatalogue = Locked(catalogue)
        self.pcmCache = pcmCache
        self.shares = shares
        engine.remoteLink.withLock { $0 }?.offer(catalogue)
    }

    /// Creates an empty bank that keeps decoded sounds between runs, so the next start reads them back
    /// instead of decoding (in `$XDG_CACHE_HOME/soundstation/pcm`; `SOUNDSTATION_PCM_CACHE=off`
    /// turns that off).
    /// - Parameters:
    ///   - engine: The engine to upload into.
    ///   - catalogue: The sounds that may be loaded.
    public convenience init(engine: AudioEngine, catalogue: Catalogue) {
        self.init(engine: engine, catalogue: catalogue, pcmCache: .standard)
    }

    /// Creates an empty bank with its own decoded-sound cache.
    /// - Parameters:
    ///   - engine: The engine to upload into.
    ///   - catalogue: The sounds that may be loaded.
    ///   - pcmCache: Where decoded sounds are kept between runs; `nil` decodes every time.
    package init(engine: AudioEngine, catalogue: Catalogue, pcmCache: PCMCache?) {
        self.engine = engine
        self.currentCatalogue = Locked(catalogue)
        self.pcmCache = pcmCache
        self.shares = DecodedShares()
        // A remote engine sends the catalogue's files to the player's cache.
        engine.remoteLink.withLock { $0 }?.offer(catalogue)
    }

    /// The loaded buffer for `name`, or `nil` when it is not loaded.
    /// - Parameter name: A catalogue name.
    /// - Returns: The shared buffer.
    public func buffer(named name: String) -> SoundBuffer? {
        table.withLock { $0.loaded[name]?.buffer }
    }

    /// The id of a loaded sound, for ``AudioEngine/triggerPort``, ``EffectStation/play(_:volume:pitch:pan:at:)-(SoundID,_,_,_,_)``
    /// and the C interface: resolve names once, then trigger by id.
    /// - Parameter name: A catalogue name.
    /// - Returns: Its id, which stays the same for the bank's life (also after an unload and reload).
    /// - Throws: ``SoundLoadError/notLoaded(name:)`` when the sound is not loaded now, or a catalogue
    ///   error naming an unknown sound.
    public func id(of name: String) throws(SoundLoadError) -> SoundID {
        if let id = table.withLock({ $0.loaded[name]?.id }) { return id }
        do { _ = try catalogue.entry(named: name) } catch { throw .catalogue(error) }
        throw .notLoaded(name: name)
    }

    /// The id of a loaded sound named by a typed resource.
    /// - Parameter sound: A ``SoundResource``.
    /// - Returns: Its id.
    /// - Throws: As ``id(of:)-(String)``.
    public func id(of sound: some SoundResource) throws(SoundLoadError) -> SoundID {
        try id(of: sound.catalogueName)
    }

    /// Whether `name` is loaded to stream from its file rather than held decoded.
    /// - Parameter name: A catalogue name.
    /// - Returns: True for a loaded streamed track.
    public func isStreamed(_ name: String) -> Bool {
        table.withLock { $0.loaded[name].map { $0.buffer == nil } ?? false }
    }

    /// A loaded sound as the stations use it: its catalogue entry, id and buffer (`nil` for a
    /// streamed track). A class made once per load, so a music switch takes one reference where a
    /// copy of the entry (a dozen references and its text) cost a thousand instructions on the
    /// caller; not a tuple, whose type metadata (with an optional class in it) is built at run time
    /// on first use, about 43,000 instructions on a game's first `music.play`.
    final class Found: Sendable {
        let entry: SoundEntry
        let id: SoundID
        let buffer: SoundBuffer?

        init(entry: SoundEntry, id: SoundID, buffer: SoundBuffer?) {
            (self.entry, self.id, self.buffer) = (entry, id, buffer)
        }
    }

    /// The loaded sound named `name`, for the stations.
    func lookup(_ name: String) -> Found? {
        // Through the index, which reads the one field in place: `loaded[name]?.found` copied the whole
        // entry out (its stems, warnings and file info) and destroyed the copy, half the lookup's cost.
        table.withLock { table in
            table.loaded.index(forKey: name).map { table.loaded.values[$0].found }
        }
    }

    /// The names loaded now, sorted.
    public var loadedNames: [String] { table.withLock { $0.loaded.keys.sorted() } }

    /// Bytes of PCM the loaded sounds hold on the device.
    /// Entries that share one file's samples count them once.
    public var loadedBytes: Int {
        table.withLock { table in
            var seen = Set<ObjectIdentifier>()
            return table.loaded.values.reduce(0) { total, item in
                guard let holder = item.buffer?.holder, seen.insert(ObjectIdentifier(holder)).inserted else {
                    return total
                }
                return total + holder.byteCount
            }
        }
    }

    /// How many users hold `name` (0 when it is not loaded).
    /// - Parameter name: A catalogue name.
    /// - Returns: The use count.
    public func users(of name: String) -> Int { table.withLock { $0.loaded[name]?.users ?? 0 } }

    /// Loads one sound on the calling thread (decoding it if no one holds it yet) and counts one more
    /// user of it.
    /// - Parameter name: A catalogue name.
    /// - Returns: What the decoder said of its files that loaded anyway (a file cut short plays the
    ///   part that is there), each naming the sound and the file; empty for a sound that loaded cleanly.
    ///   They are returned rather than printed, so a game or tool shows them where it shows messages.
    /// - Throws: ``SoundLoadError`` naming the sound and its file.
    @discardableResult
    public func load(_ name: String) throws(SoundLoadError) -> [SoundLoadWarning] {
        try load(name, splittingLongDecodes: false)
    }

    /// ``load(_:)``; `splittingLongDecodes`: a long Ogg Vorbis file may decode in two halves at once
    /// (``DecodingOptions/splitsLongDecodes``), for the parallel preload.
    func load(_ name: String, splittingLongDecodes: Bool) throws(SoundLoadError) -> [SoundLoadWarning] {
        if let warnings = retain(name) { return warnings }
        let entry: SoundEntry
        do { entry = try catalogue.entry(named: name) } catch { throw .catalogue(error) }
        let id = table.withLock { table in
            if let id = table.ids[name] { return id }
            let id = engine.reserveSoundID(name: name)
            table.ids[name] = id
            return id
        }
        let decoded = try Self.decode(
            entry, id: id, engine: engine, cache: pcmCache, splittingLongDecodes: splittingLongDecodes,
            shares: shares)
        let item = Loaded(
            found: Found(entry: entry, id: id, buffer: decoded.buffer), users: 1, info: decoded.info,
            stems: decoded.stems, warnings: decoded.warnings)
        let warnings = insert(item).map { SoundLoadWarning(name: name, warning: $0) }
        // A streamed sound makes no buffer (makeBuffer notes that): its load says the game is active.
        engine.noteCall()
        return warnings
    }

    /// Counts one user fewer of `name`; the buffer is freed when none is left (voices still playing it
    /// keep it alive until they end).
    ///
    /// The sound's id stops triggering at once; the buffer itself is let go of after the bank's lock,
    /// so freeing it never holds up a lookup.
    /// - Parameter name: A catalogue name.
    public func unload(_ name: String) {
        let released = table.withLock { table -> Loaded? in
            guard var item = table.loaded[name] else { return nil }
            item.users -= 1
            if item.users > 0 {
                table.loaded[name] = item
                return nil
            }
            table.loaded[name] = nil
            // Under the bank's lock, so a load racing this unload cannot be undone by it.
            engine.install(item.id, buffer: nil, defaults: SoundDefaults())
            return item
        }
        // The last reference may go here, deleting the device's buffer: after every lock.
        _ = released
    }

    /// Counts one more user of a loaded sound and returns its warnings; `nil` when it is not loaded.
    private func retain(_ name: String) -> [SoundLoadWarning]? {
        table.withLock { table in
            guard var item = table.loaded[name] else { return nil }
            item.users += 1
            table.loaded[name] = item
            return item.warnings.map { SoundLoadWarning(name: name, warning: $0) }
        }
    }

    /// Adds a freshly loaded sound, or, when another loader won the race, counts a user of theirs.
    /// - Returns: The warnings of the sound now held (theirs when they won).
    private func insert(_ item: Loaded) -> [AudioDecodingWarning] {
        let defaults = defaults(for: item.entry)
        return table.withLock { table in
            if var existing = table.loaded[item.entry.name] {
                existing.users += 1
                table.loaded[item.entry.name] = existing
                return existing.warnings
            }
            table.loaded[item.entry.name] = item
            engine.install(item.id, buffer: item.buffer, defaults: defaults)
            return item.warnings
        }
    }

    /// Renders a synthesised sound and uploads it under `id`.
    static func synthesise(
        _ synth: SynthSound, name: String, id: SoundID, engine: AudioEngine
    ) throws(SoundLoadError) -> Decoded {
        let audio: PCMAudio
        do { audio = try SynthGenerator.render(synth.parameters) } catch {
            throw .catalogue(.undecodable(name: name, path: "synth", reason: error.description))
        }
        let parameters = synth.parameters
        do {
            let buffer = try engine.makeBuffer(audio, name: name, loopPoints: nil, id: id) {
                try SynthGenerator.render(parameters)
            }
            let info = AudioFileInfo(
                format: .wav, sampleRate: audio.sampleRate, channels: audio.channels,
                frameCount: audio.frameCount)
            return Decoded(buffer: buffer, info: info, stems: [], warnings: [])
        } catch {
            throw .engine(name: name, error)
        }
    }

    /// The settings a trigger by id takes from `entry`.
    func defaults(for entry: SoundEntry) -> SoundDefaults {
        let limit = InstanceLimit(
            maxInstances: entry.maxInstances, steal: entry.steal,
            coalesceFrames: Int64(entry.coalesceMilliseconds / 1000 * Double(engine.sampleRate)))
        return SoundDefaults(
            volume: entry.volume, priority: entry.priority, bus: entry.kind == .voice ? .voice : .effects,
            limit: limit, duckMusic: entry.duckMusic, variation: Float(entry.synth?.variation ?? 0))
    }

    /// A sound decoded (or, for a streamed track, opened and checked) and uploaded, not yet in the table.
    struct Decoded {
        var buffer: SoundBuffer?
        var info: AudioFileInfo
        var stems: [SoundBuffer]
        var warnings: [AudioDecodingWarning]
    }

    /// Decodes and uploads an entry and its stems, collecting the decoder's warnings (once each).
    /// `cache`: where decoded samples are read back from and kept (``PCMCache``), or `nil`.
    /// `shares`: files decoded for other entries, whose buffers this one shares when it names the same
    /// file with the same options (`nil`: decode afresh, as a reload of an edited file does).
    static func decode(
        _ entry: SoundEntry, id: SoundID, engine: AudioEngine, cache: PCMCache? = nil,
        splittingLongDecodes: Bool = false, shares: DecodedShares? = nil
    ) throws(SoundLoadError) -> Decoded {
        if let synth = entry.synth {
            return try synthesise(synth, name: entry.name, id: id, engine: engine)
        }
        var (options, collected) = entry.decodingOptions.collectingWarnings()
        options.splitsLongDecodes = splittingLongDecodes
        let (buffer, info) = try decodeAndUpload(
            entry, options: options, id: id, engine: engine, cache: cache, shares: shares)
        let stems = try decodeStems(
            of: entry, like: info, options: options, streamed: buffer == nil, engine: engine, cache: cache)
        return Decoded(buffer: buffer, info: info, stems: stems, warnings: collected())
    }

    /// Decodes and uploads an entry, or for long music checks that it opens and leaves it to stream;
    /// a music entry's tempo and markers are checked against the file. An entry on a file another
    /// entry decoded with the same options (in `shares`) plays that decode: nothing is decoded or
    /// uploaded again unless its loop points differ (then only uploaded).
    private static func decodeAndUpload(
        _ entry: SoundEntry, options: DecodingOptions, id: SoundID, engine: AudioEngine, cache: PCMCache?,
        shares: DecodedShares?
    ) throws(SoundLoadError) -> (SoundBuffer?, AudioFileInfo) {
        guard let shares, let key = DecodedShares.Key(path: entry.resolvedPath, options: options) else {
            var alone = DecodedShares.Slot()
            return try decodeAndUpload(
                entry, options: options, id: id, engine: engine, cache: cache, slot: &alone)
        }
        return try shares.withSlot(key) { (slot) throws(SoundLoadError) in
            try decodeAndUpload(entry, options: options, id: id, engine: engine, cache: cache, slot: &slot)
        }
    }

    /// ``decodeAndUpload(_:options:id:engine:cache:shares:)`` with what is known of the file in `slot`.
    private static func decodeAndUpload(
        _ entry: SoundEntry, options: DecodingOptions, id: SoundID, engine: AudioEngine, cache: PCMCache?,
        slot: inout DecodedShares.Slot
    ) throws(SoundLoadError) -> (SoundBuffer?, AudioFileInfo) {
        do {
            let known = slot.info.flatMap { $0.format.isSong ? nil : $0 }
            let info = try known ?? AudioDecoder.info(ofFileAt: entry.resolvedPath, options: options)
            slot.info = info
            let bytes = info.frameCount * info.channels * MemoryLayout<Float>.size
            // Every format streams; a song (module, chiptune, MIDI) that loops by its own structure
            // always does, since its loop is the song's and not a range of frames.
            let songLoop = info.format.isSong && entry.loopsBySongStructure
            // A layered track streams only when asked to (its stems stream beside it), never by size.
            if entry.kind == .music,
                entry.stream || (entry.stems.isEmpty && (bytes > streamingThreshold || songLoop))
            {
                do { try entry.checkTiming(sampleRate: info.sampleRate, frameCount: info.frameCount) } catch {
                    throw SoundLoadError.catalogue(error)
                }
                return (nil, info)
            }
            let audio: PCMAudio
            let reload: @Sendable () throws -> PCMAudio
            if let shared = slot.anyBuffer {
                // Decoded for another entry: what decoding said of the file is said of this one too.
                for warning in slot.warnings { options.warn(warning) }
                audio = PCMAudio(
                    sampleRate: shared.sampleRate, channels: shared.channels, samples: shared.samples)
                reload = shared.reload
            } else {
                let said = Locked<[AudioDecodingWarning]>([])
                var watched = options
                watched.warn = { warning in
                    said.withLock { $0.append(warning) }
                    options.warn(warning)
                }
                audio = try decodeWhole(entry.resolvedPath, options: watched, cache: cache)
                slot.warnings = said.withLock { $0 }
                let path = entry.resolvedPath
                reload = { try AudioDecoder.decode(fileAt: path, options: options) }
            }
            do { try entry.checkTiming(sampleRate: audio.sampleRate, frameCount: audio.frameCount) } catch {
                throw SoundLoadError.catalogue(error)
            }
            let decoded = info.withFrameCount(audio.frameCount)
            let loop = entry.loopRange(sampleRate: audio.sampleRate, frameCount: audio.frameCount)
            if let same = slot.buffer(loop: loop) {
                return (SoundBuffer(sharing: same, name: entry.name, id: id), decoded)
            }
            do {
                let buffer = try engine.makeBuffer(
                    audio, name: entry.name, loopPoints: loop, id: id, reload: reload)
                slot.add(buffer)
                return (buffer, decoded)
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

    /// A whole file decoded, through `cache` when there is one.
    static func decodeWhole(_ path: String, options: DecodingOptions, cache: PCMCache?)
        throws(AudioDecodingError)
        -> PCMAudio
    {
        guard let cache else { return try AudioDecoder.decode(fileAt: path, options: options) }
        return try cache.decode(fileAt: path, options: options)
    }
}
