/// Writes small ProTracker (MOD) and ScreamTracker 3 (S3M) modules byte by byte, so the module
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

    private static func padded(_ text: String, _ count: Int) -> [UInt8] {
        Array((Array(text.utf8) + [UInt8](repeating: 0, count: count)).prefix(count))
    }

    private static func be16(_ value: Int) -> [UInt8] { [UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)] }
}

#if canImport(Glibc)
    import Glibc
#endif
