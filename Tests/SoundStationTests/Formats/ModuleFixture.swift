/// Writes small ProTracker (MOD), ScreamTracker 3 (S3M), FastTracker 2 (XM) and Impulse Tracker (IT)
/// modules byte by byte, so the module
/// decoder is tested on songs whose structure the test knows: two patterns of 16 rows at 3 ticks a
/// row, the first playing a low note, the second a note an octave higher and ending with a jump
/// back to itself, so the song's loop is the second pattern only.
enum ModuleFixture {
    /// Rows played per pattern before the pattern break or jump.
    static let rows = 16
    /// Seconds per row at speed 3, 125 BPM (2.5 / 125 s per tick).
    static let rowSeconds = 3 * 2.5 / 125
    /// Seconds of one pattern.
    static var patternSeconds: Double { Double(rows) * rowSeconds }

    /// One cycle of a sine as signed 8-bit, looped for ever by the sample's loop.
    static let waveform: [Int8] = (0..<32).map { Int8((sin(Double($0) / 32 * 2 * .pi) * 100).rounded()) }

    /// A 4-channel "M.K." module.
    static func mod() -> [UInt8] {
        var bytes = padded("soundstation test", 20)
        // Sample 1: a looping sine cycle; samples 2-31 empty.
        bytes += padded("sine", 22) + be16(waveform.count / 2) + [0, 64] + be16(0) + be16(waveform.count / 2)
        for _ in 2...31 { bytes += [UInt8](repeating: 0, count: 22) + be16(0) + [0, 0] + be16(0) + be16(1) }
        bytes += [2, 127]  // song length 2, restart byte
        bytes += [0, 1] + [UInt8](repeating: 0, count: 126)
        bytes += Array("M.K.".utf8)
        // Amiga periods: C-2 = 428, C-3 = 214.
        bytes += modPattern(period: 428, lastEffect: (0xD, 0))  // pattern break to the next order
        bytes += modPattern(period: 214, lastEffect: (0xB, 1))  // jump to order 1: the song's loop
        bytes += waveform.map { UInt8(bitPattern: $0) }
        return bytes
    }

    private static func modPattern(period: Int, lastEffect: (Int, Int)) -> [UInt8] {
        var pattern: [UInt8] = []
        for row in 0..<64 {
            for channel in 0..<4 {
                var cell: [UInt8] = [0, 0, 0, 0]
                if row == 0 && channel == 0 {
                    // Sample 1, the note, and speed 3.
                    cell = [UInt8(period >> 8), UInt8(period & 0xFF), 0x1F, 3]
                } else if row == rows - 1 && channel == 1 {
                    cell = [0, 0, UInt8(lastEffect.0), UInt8(lastEffect.1)]
                }
                pattern += cell
            }
        }
        return pattern
    }

    /// A 2-channel ScreamTracker 3 module with the same song.
    static func s3m() -> [UInt8] {
        var header = padded("soundstation test", 28) + [0x1A, 16, 0, 0]
        header += le16(2) + le16(1) + le16(2) + le16(0) + le16(0x1320) + le16(2) + Array("SCRM".utf8)
        header += [64, 6, 125, 0xB0, 0, 0] + [UInt8](repeating: 0, count: 8) + le16(0)
        header += [0, 8] + [UInt8](repeating: 0xFF, count: 30)  // channel 1 left, channel 2 right
        header += [0, 1]  // orders
        // Parapointers (offset / 16) follow: 1 instrument, 2 patterns; the blocks start at 0x70.
        let instrumentAt = 0x70
        let pattern0 = s3mPattern(note: 0x40, effect: (3, 0))  // C-4, then C: pattern break
        let pattern1 = s3mPattern(note: 0x50, effect: (2, 1))  // C-5, then B: jump to order 1
        let pattern0At = instrumentAt + 80
        let pattern1At = align16(pattern0At + pattern0.count)
        let sampleAt = align16(pattern1At + pattern1.count)
        header += le16(instrumentAt / 16) + le16(pattern0At / 16) + le16(pattern1At / 16)
        var bytes = header + [UInt8](repeating: 0, count: instrumentAt - header.count)
        bytes += [1] + padded("sine.raw", 12) + [UInt8(sampleAt >> 20)] + le16((sampleAt / 16) & 0xFFFF)
        bytes += le32(waveform.count) + le32(0) + le32(waveform.count) + [64, 0, 0, 1] + le32(8_363)
        bytes += [UInt8](repeating: 0, count: 12) + padded("sine", 28) + Array("SCRS".utf8)
        bytes += pattern0 + [UInt8](repeating: 0, count: pattern1At - pattern0At - pattern0.count)
        bytes += pattern1 + [UInt8](repeating: 0, count: sampleAt - pattern1At - pattern1.count)
        return bytes + waveform.map { UInt8(bitPattern: $0) ^ 0x80 }  // unsigned samples
    }

    private static func s3mPattern(note: UInt8, effect: (UInt8, UInt8)) -> [UInt8] {
        var rows: [UInt8] = []
        for row in 0..<64 {
            if row == 0 {
                rows += [0x20 | 0x80, note, 1, 1, 3]  // channel 0: note, instrument 1, A03 (speed 3)
            } else if row == ModuleFixture.rows - 1 {
                rows += [0x80 | 1, effect.0, effect.1]  // channel 1: the break or jump
            }
            rows.append(0)
        }
        return le16(rows.count + 2) + rows
    }

    /// A 2-channel FastTracker 2 module with the same song.
    static func xm() -> [UInt8] {
        var bytes = Array("Extended Module: ".utf8) + padded("soundstation test", 20) + [0x1A]
        bytes += padded("SoundStation tests", 20) + le16(0x0104) + le32(276)
        bytes += le16(2) + le16(1) + le16(2) + le16(2) + le16(1) + le16(1) + le16(3) + le16(125)
        bytes += [0, 1] + [UInt8](repeating: 0, count: 254)
        for (note, effect) in [(UInt8(49), (UInt8(0x0D), UInt8(0))), (61, (0x0B, 1))] {  // C-4, C-5
            var data: [UInt8] = []
            for row in 0..<ModuleFixture.rows {
                if row == 0 {
                    data += [0x80 | 0x03, note, 1, 0x80]  // channel 1: note and instrument
                } else if row == ModuleFixture.rows - 1 {
                    data += [0x80, 0x80 | 0x18, effect.0, effect.1]  // channel 2: break or jump
                } else {
                    data += [0x80, 0x80]
                }
            }
            bytes += le32(9) + [0] + le16(ModuleFixture.rows) + le16(data.count) + data
        }
        var instrument = le32(263) + padded("sine", 22) + [0] + le16(1) + le32(40)
        instrument += [UInt8](repeating: 0, count: 96 + 48 + 48 + 16) + le16(0)
        instrument += [UInt8](repeating: 0, count: 263 - instrument.count)
        bytes += instrument
        bytes += le32(waveform.count) + le32(0) + le32(waveform.count) + [64, 0, 1, 128, 0, 0]
        bytes += padded("sine", 22)
        var previous: Int8 = 0
        for value in waveform {  // delta-encoded
            bytes.append(UInt8(bitPattern: value &- previous))
            previous = value
        }
        return bytes
    }

    /// A 2-channel Impulse Tracker module with the same song, in sample mode (no instruments), laid
    /// out as ITTECH.TXT describes: the `IMPM` header, orders, the offsets of the sample header and
    /// the patterns, then those blocks and the sample data.
    static func it() -> [UInt8] {
        let orders: [UInt8] = [0, 1, 255]
        var header = Array("IMPM".utf8) + padded("soundstation test", 26) + [4, 16]
        header += le16(orders.count) + le16(0) + le16(1) + le16(2)  // orders, instruments, samples, patterns
        header += le16(0x0214) + le16(0x0214)  // made with and compatible with IT 2.14
        header += le16(0x09) + le16(0)  // stereo, linear slides; no message
        header += [128, 128, 3, 125, 128, 0]  // global and mix volume, speed 3, tempo 125, separation
        header += le16(0) + le32(0) + le32(0)  // message length and offset, reserved
        header += [0, 64] + [UInt8](repeating: 32 | 128, count: 62)  // channel 1 left, 2 right, rest off
        header += [UInt8](repeating: 64, count: 64)  // channel volumes
        header += orders
        let sampleHeaderAt = header.count + 3 * 4  // after the sample's and the two patterns' offsets
        let pattern0 = itPattern(note: 60, effect: (3, 0))  // C-5, then C: pattern break
        let pattern1 = itPattern(note: 72, effect: (2, 1))  // C-6, then B: jump to order 1
        let pattern0At = sampleHeaderAt + 80
        let pattern1At = pattern0At + pattern0.count
        let sampleAt = pattern1At + pattern1.count
        var bytes = header + le32(sampleHeaderAt) + le32(pattern0At) + le32(pattern1At)
        bytes += Array("IMPS".utf8) + padded("sine.raw", 12) + [0, 64, 0x11, 64]  // loops; volume 64
        bytes += padded("sine", 26) + [1, 32]  // signed samples; default pan unused
        bytes += le32(waveform.count) + le32(0) + le32(waveform.count) + le32(8_363)
        bytes += le32(0) + le32(0) + le32(sampleAt) + [0, 0, 0, 0]  // sustain loop, data, vibrato
        bytes += pattern0 + pattern1
        return bytes + waveform.map { UInt8(bitPattern: $0) }
    }

    /// 64 rows packed the IT way: a channel byte with bit 7 set announces a mask byte (1 note,
    /// 2 instrument, 8 command and value); a 0 byte ends each row.
    private static func itPattern(note: UInt8, effect: (UInt8, UInt8)) -> [UInt8] {
        var rows: [UInt8] = []
        for row in 0..<64 {
            if row == 0 {
                rows += [0x80 | 1, 1 | 2 | 8, note, 1, 1, 3]  // channel 1: note, sample 1, A03 (speed 3)
            } else if row == ModuleFixture.rows - 1 {
                rows += [0x80 | 2, 8, effect.0, effect.1]  // channel 2: the break or jump
            }
            rows.append(0)
        }
        return le16(rows.count) + le16(64) + [0, 0, 0, 0] + rows
    }

    private static func align16(_ value: Int) -> Int { (value + 15) / 16 * 16 }

    private static func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF)] }

    private static func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) } }

    private static func padded(_ text: String, _ count: Int) -> [UInt8] {
        Array((Array(text.utf8) + [UInt8](repeating: 0, count: count)).prefix(count))
    }

    private static func be16(_ value: Int) -> [UInt8] { [UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)] }
}

#if canImport(Glibc)
    import Glibc
#endif
