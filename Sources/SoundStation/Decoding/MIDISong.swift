/// The timing of a Standard MIDI file, read without playing it: how long the song is and where its
/// loop starts, so a stream knows its length and loops where the song says.
///
/// The loop start is the first controller 111 on any channel (the marker RPG Maker and many game
/// engines write: "loop back to here"); a song without one loops whole. The end is the last
/// End of Track (or last event) of any track.
struct MIDISong: Sendable, Equatable {
    /// Tracks in the file.
    let trackCount: Int
    /// The tick of the song's end.
    let endTick: Int
    /// The tick of the loop start (controller 111), or 0.
    let loopTick: Int
    /// Whether the loop start came from a controller 111 marker.
    let hasLoopMarker: Bool
    /// The song's end in seconds.
    let endSeconds: Double
    /// The loop start in seconds.
    let loopSeconds: Double

    /// The most tracks a file may have (real songs have a few dozen).
    static let maximumTracks = 1024

    /// Reads the file's header and every track's events.
    /// - Parameters:
    ///   - bytes: The whole file.
    ///   - name: The file's name for messages.
    /// - Throws: ``AudioDecodingError`` saying which part of the file is wrong.
    init(bytes: [UInt8], name: String) throws(AudioDecodingError) {
        guard bytes.count >= 14, Array(bytes[0..<4]) == Array("MThd".utf8) else {
            throw .unsupportedFormat(path: name, reason: "it does not start with a MIDI header (MThd)")
        }
        let headerLength = Self.be32(bytes, 4)
        guard headerLength >= 6, 8 + headerLength <= bytes.count else {
            throw .corrupt(path: name, reason: "its MIDI header claims \(headerLength) bytes")
        }
        let format = Self.be16(bytes, 8)
        let declaredTracks = Self.be16(bytes, 10)
        let division = Self.be16(bytes, 12)
        guard format <= 2 else {
            throw .unsupportedFormat(path: name, reason: "MIDI file format \(format) (0, 1 or 2)")
        }
        guard division != 0 else {
            throw .corrupt(path: name, reason: "its MIDI header gives 0 ticks per beat")
        }
        guard declaredTracks <= Self.maximumTracks else {
            throw .unsupportedFormat(
                path: name, reason: "\(declaredTracks) tracks (at most \(Self.maximumTracks))")
        }
        var tempos: [(tick: Int, microsecondsPerBeat: Int)] = []
        var endTick = 0
        var loopTick: Int?
        var offset = 8 + headerLength
        var tracks = 0
        while tracks < declaredTracks, offset + 8 <= bytes.count {
            let length = Self.be32(bytes, offset + 4)
            let start = offset + 8
            guard start + length <= bytes.count else {
                throw .truncated(
                    path: name,
                    reason: "track \(tracks + 1) claims \(length) bytes, \(bytes.count - start) are there")
            }
            if Array(bytes[offset..<offset + 4]) == Array("MTrk".utf8) {
                let scan = try Self.scanTrack(bytes, start..<start + length, track: tracks + 1, name: name)
                tempos += scan.tempos
                endTick = max(endTick, scan.endTick)
                if let found = scan.loopTick { loopTick = min(loopTick ?? found, found) }
                tracks += 1
            }
            offset = start + length
        }
        guard tracks > 0 else { throw .corrupt(path: name, reason: "it holds no MIDI track (MTrk)") }
        tempos.sort { $0.tick < $1.tick }
        trackCount = tracks
        self.endTick = endTick
        let loop = loopTick.map { min($0, endTick) } ?? 0
        self.loopTick = loop
        hasLoopMarker = loopTick != nil && loop < endTick
        endSeconds = Self.seconds(at: endTick, tempos: tempos, division: division)
        loopSeconds = Self.seconds(at: hasLoopMarker ? loop : 0, tempos: tempos, division: division)
    }

    private struct TrackScan {
        var tempos: [(tick: Int, microsecondsPerBeat: Int)] = []
        var endTick = 0
        var loopTick: Int?
    }

    /// Walks one track's events (variable-length deltas, running status, meta and SysEx events).
    private static func scanTrack(_ bytes: [UInt8], _ range: Range<Int>, track: Int, name: String)
        throws(AudioDecodingError) -> TrackScan
    {
        var scan = TrackScan()
        var index = range.lowerBound
        var tick = 0
        var running: UInt8 = 0
        func damaged(_ what: String) -> AudioDecodingError {
            .corrupt(path: name, reason: "track \(track) \(what) at byte \(index)")
        }
        func quantity() throws(AudioDecodingError) -> Int {
            var value = 0
            for _ in 0..<4 {
                guard index < range.upperBound else { throw damaged("ends inside a number") }
                let byte = bytes[index]
                index += 1
                value = value << 7 | Int(byte & 0x7F)
                if byte & 0x80 == 0 { return value }
            }
            throw damaged("has a number longer than 4 bytes")
        }
        while index < range.upperBound {
            tick += try quantity()
            guard index < range.upperBound else { throw damaged("ends before an event") }
            var status = bytes[index]
            if status & 0x80 != 0 {
                index += 1
            } else {
                guard running != 0 else { throw damaged("has data without a status byte") }
                status = running
            }
            switch status {
            case 0xFF:
                guard index < range.upperBound else { throw damaged("ends inside a meta event") }
                let type = bytes[index]
                index += 1
                let length = try quantity()
                guard index + length <= range.upperBound else {
                    throw damaged("has a meta event past its end")
                }
                if type == 0x51, length == 3 {
                    let tempo = Int(bytes[index]) << 16 | Int(bytes[index + 1]) << 8 | Int(bytes[index + 2])
                    if tempo > 0 { scan.tempos.append((tick, tempo)) }
                }
                index += length
                if type == 0x2F {
                    scan.endTick = tick
                    return scan
                }
            case 0xF0, 0xF7:
                let length = try quantity()
                guard index + length <= range.upperBound else { throw damaged("has a SysEx past its end") }
                index += length
            default:
                guard status >= 0x80, status < 0xF0 else { throw damaged("has an unknown status \(status)") }
                running = status
                let size = (status & 0xF0 == 0xC0 || status & 0xF0 == 0xD0) ? 1 : 2
                guard index + size <= range.upperBound else { throw damaged("ends inside an event") }
                if status & 0xF0 == 0xB0, bytes[index] == 111, scan.loopTick == nil { scan.loopTick = tick }
                index += size
            }
            scan.endTick = tick
        }
        return scan
    }

    /// Seconds at `tick` under the tempo map (120 bpm until the first tempo event), or SMPTE time.
    private static func seconds(at tick: Int, tempos: [(tick: Int, microsecondsPerBeat: Int)], division: Int)
        -> Double
    {
        if division & 0x8000 != 0 {
            // SMPTE: frames per second (a negative byte) times ticks per frame.
            let fps = Double(256 - (division >> 8))
            let perFrame = Double(division & 0xFF)
            return Double(tick) / max(fps * perFrame, 1)
        }
        var seconds = 0.0
        var lastTick = 0
        var tempo = 500_000
        for change in tempos where change.tick < tick {
            seconds += Double(change.tick - lastTick) * Double(tempo) / 1e6 / Double(division)
            lastTick = change.tick
            tempo = change.microsecondsPerBeat
        }
        return seconds + Double(tick - lastTick) * Double(tempo) / 1e6 / Double(division)
    }

    private static func be16(_ bytes: [UInt8], _ at: Int) -> Int { Int(bytes[at]) << 8 | Int(bytes[at + 1]) }

    private static func be32(_ bytes: [UInt8], _ at: Int) -> Int {
        Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
    }
}
