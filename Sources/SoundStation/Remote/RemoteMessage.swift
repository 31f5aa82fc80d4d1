/// A file the server's catalogue needs, known by its content.
package struct RemoteFile: Sendable, Hashable {
    /// The file's SHA-256.
    package var hash: ContentHash
    /// Its length in bytes.
    package var size: Int

    /// Names a file.
    /// - Parameters:
    ///   - hash: The file's SHA-256.
    ///   - size: Its length in bytes.
    package init(hash: ContentHash, size: Int) {
        self.hash = hash
        self.size = size
    }
}

/// One message from a remote engine (the game's side of an SSH session) to the player's side, carried
/// in a ``RemoteFraming`` frame. Encoded in ``WireFormat`` with kinds from 100 up, apart from the
/// commands' and the events' kinds.
package enum RemoteMessage: Sendable, Equatable {
    /// The first message of a session: the server engine's rate and clock.
    case hello(sampleRate: Int, frame: Int64, session: UInt64)
    /// A command the server's mixing side carried out at `frame` of its clock.
    case command(EngineCommand, frame: Int64)
    /// The server's clock now, sent while nothing else is, so the player keeps its offset fresh.
    case clock(frame: Int64)
    /// The game's catalogue: its manifest with every path replaced by `<sha256>.<ext>`, and the files.
    case catalogue(manifest: [UInt8], files: [RemoteFile])
    /// The catalogue name behind a server sound id, sent before the id is first used.
    case soundName(SoundID, name: String)
    /// A piece of a file: `data` at `offset` of the `size` bytes whose hash is `hash`.
    case fileChunk(ContentHash, size: Int, offset: Int, data: [UInt8])
    /// The game closed its engine.
    case bye
    /// The game opened a fed stream (``AudioEngine/openFeed(channels:sampleRate:options:queueFrames:name:)``)
    /// whose voice plays the server sound id `stream`; its packets decode to `channels` at 48 kHz.
    case streamOpen(SoundID, channels: Int)
    /// One Opus packet of a fed stream (20 ms), the `sequence`th of the stream, whose first frame was
    /// written at `frame` of the server's clock.
    case streamPacket(SoundID, sequence: UInt32, frame: Int64, data: [UInt8])
    /// The game closed the stream after `packets` packets: the player plays what it received, then
    /// ends the voice.
    case streamEnd(SoundID, packets: UInt32)

    /// The most files a catalogue may list.
    package static let maxFiles = 4096
    /// The longest file a message may describe (the player's own cap is usually lower).
    package static let maxFileSize = 1 << 40
    /// The longest Opus packet (RFC 6716, 3.2.1: 1275 bytes a frame, and a packet of 20 ms holds one).
    package static let maxStreamPacket = 1275

    /// The message in the wire encoding.
    /// - Returns: The bytes a frame carries.
    package func encoded() -> [UInt8] {
        switch self {
        case .hello(let rate, let frame, let session):
            var w = WireWriter(kind: 100)
            w.i32(Int32(clamping: rate))
            w.i64(frame)
            w.u64(session)
            return w.bytes
        case .command(let command, let frame):
            var w = WireWriter(kind: 101)
            w.i64(frame)
            w.blob(command.encoded())
            return w.bytes
        case .clock(let frame):
            var w = WireWriter(kind: 102)
            w.i64(frame)
            return w.bytes
        case .catalogue(let manifest, let files):
            var w = WireWriter(kind: 103)
            w.blob(manifest)
            w.i32(Int32(clamping: files.count))
            for file in files {
                w.fixed(file.hash.bytes)
                w.i64(Int64(file.size))
            }
            return w.bytes
        case .soundName(let id, let name):
            var w = WireWriter(kind: 104)
            w.i32(id.rawValue)
            w.string(name)
            return w.bytes
        case .fileChunk(let hash, let size, let offset, let data):
            var w = WireWriter(kind: 105)
            w.fixed(hash.bytes)
            w.i64(Int64(size))
            w.i64(Int64(offset))
            w.blob(data)
            return w.bytes
        case .bye:
            return WireWriter(kind: 106).bytes
        case .streamOpen(let id, let channels):
            var w = WireWriter(kind: 107)
            w.i32(id.rawValue)
            w.u8(UInt8(clamping: channels))
            return w.bytes
        case .streamPacket(let id, let sequence, let frame, let data):
            var w = WireWriter(kind: 108)
            w.i32(id.rawValue)
            w.i32(Int32(bitPattern: sequence))
            w.i64(frame)
            w.blob(data)
            return w.bytes
        case .streamEnd(let id, let packets):
            var w = WireWriter(kind: 109)
            w.i32(id.rawValue)
            w.i32(Int32(bitPattern: packets))
            return w.bytes
        }
    }

    /// Reads a message, refusing anything no server of this version writes.
    /// - Parameter bytes: One frame's message.
    /// - Throws: ``WireError`` for short, long or out-of-range bytes; nothing is read past the end.
    package init(decoding bytes: [UInt8]) throws(WireError) {
        var r = try WireReader(bytes)
        switch r.kind {
        case 100:
            let rate = try r.i32()
            guard (8000...192_000).contains(rate) else {
                throw .invalidValue(field: "sample rate", value: "\(rate)")
            }
            self = .hello(sampleRate: Int(rate), frame: try Self.frame(&r), session: try r.u64())
        case 101:
            let frame = try Self.frame(&r)
            self = .command(
                try EngineCommand(decoding: try r.blob(max: RemoteFraming.maxPayload)), frame: frame)
        case 102: self = .clock(frame: try Self.frame(&r))
        case 103:
            let manifest = try r.blob(max: RemoteFraming.maxPayload)
            let count = try r.i32()
            guard (0...Int32(Self.maxFiles)).contains(count) else {
                throw .invalidValue(field: "file count", value: "\(count)")
            }
            var files: [RemoteFile] = []
            for _ in 0..<count {
                let hash = ContentHash(bytes: try r.fixed(32))!
                files.append(RemoteFile(hash: hash, size: try Self.size(&r)))
            }
            self = .catalogue(manifest: manifest, files: files)
        case 104:
            let id = try r.i32()
            guard id >= 0 else { throw .invalidValue(field: "sound id", value: "\(id)") }
            self = .soundName(SoundID(rawValue: id), name: try r.string())
        case 105:
            let hash = ContentHash(bytes: try r.fixed(32))!
            let size = try Self.size(&r)
            let offset = try Self.size(&r)
            let data = try r.blob(max: RemoteFraming.maxPayload)
            guard offset <= size, data.count <= size - offset else {
                throw .invalidValue(field: "file piece", value: "\(offset)+\(data.count) of \(size)")
            }
            self = .fileChunk(hash, size: size, offset: offset, data: data)
        case 106: self = .bye
        case 107:
            let id = try Self.soundID(&r)
            let channels = try r.u8()
            guard channels == 1 || channels == 2 else {
                throw .invalidValue(field: "stream channels", value: "\(channels)")
            }
            self = .streamOpen(id, channels: Int(channels))
        case 108:
            let id = try Self.soundID(&r)
            let sequence = UInt32(bitPattern: try r.i32())
            let frame = try Self.frame(&r)
            let data = try r.blob(max: RemoteFraming.maxPayload)
            guard (1...Self.maxStreamPacket).contains(data.count) else {
                throw .invalidValue(field: "stream packet length", value: "\(data.count)")
            }
            self = .streamPacket(id, sequence: sequence, frame: frame, data: data)
        case 109:
            let id = try Self.soundID(&r)
            self = .streamEnd(id, packets: UInt32(bitPattern: try r.i32()))
        default: throw .unknownKind(r.kind)
        }
        try r.finish()
    }

    private static func frame(_ r: inout WireReader) throws(WireError) -> Int64 {
        let frame = try r.i64()
        guard frame >= 0 else { throw .invalidValue(field: "frame", value: "\(frame)") }
        return frame
    }

    private static func soundID(_ r: inout WireReader) throws(WireError) -> SoundID {
        let id = try r.i32()
        guard id >= 0 else { throw .invalidValue(field: "sound id", value: "\(id)") }
        return SoundID(rawValue: id)
    }

    private static func size(_ r: inout WireReader) throws(WireError) -> Int {
        let size = try r.i64()
        guard (0...Int64(maxFileSize)).contains(size) else {
            throw .invalidValue(field: "size", value: "\(size)")
        }
        return Int(size)
    }
}
