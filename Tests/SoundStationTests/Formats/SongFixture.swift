import Foundation

/// Writes a Standard MIDI file and a VGM log byte by byte, so the MIDI and chiptune decoders are
/// tested on songs whose notes and loop the test knows.
enum SongFixture {
    /// The notes of the MIDI song: quarter notes at 120 bpm, one every 0.5 s.
    static let notes: [UInt8] = [57, 64, 69, 72]
    /// The note's frequency in hertz (A4 = 69 = 440 Hz).
    static func frequency(_ note: UInt8) -> Double { 440 * pow(2, (Double(note) - 69) / 12) }

    /// A format-0 MIDI file: 480 ticks a beat, 120 bpm, program `program` on channel 1, each of
    /// `notes` held for 0.4 s of its 0.5 s beat (program 0: the piano, whose attack is sharp); with `loopMarker`, a controller 111 on the second
    /// beat (the loop comes back there, not to the first note).
    static func midi(notes: [UInt8] = notes, program: UInt8 = 0, loopMarker: Bool = false) -> [UInt8] {
        var events: [UInt8] = []
        events += [0x00, 0xFF, 0x51, 0x03, 0x07, 0xA1, 0x20]  // 500 000 µs a beat: 120 bpm
        events += [0x00, 0xC0, program]
        for (index, note) in notes.enumerated() {
            if loopMarker && index == 1 { events += [0x00, 0xB0, 111, 0] }
            events += [0x00, 0x90, note, 100]
            events += quantity(384) + [0x80, note, 0]  // 0.4 s on
            if index < notes.count - 1 { events += quantity(96) + [0xFF, 0x01, 0x00] }  // 0.1 s gap
        }
        events += quantity(96) + [0xFF, 0x2F, 0x00]  // End of Track at 2.0 s
        return Array("MThd".utf8) + be32(6) + [0, 0, 0, 1, 0x01, 0xE0] + Array("MTrk".utf8)
            + be32(events.count) + events
    }

    /// The SN76489 period of a tone: clock / (32 × frequency).
    static func period(_ hertz: Double) -> Int { Int((3_579_545 / (32 * hertz)).rounded()) }

    /// A VGM 1.50 log for the SN76489 (the Master System's and Genesis's PSG): an intro of 1 s at
    /// 440 Hz, then the loop: 0.5 s at 660 Hz and 0.5 s at 880 Hz; the loop offset points at the
    /// loop, so a player comes back to 660 Hz, never to the intro's 440.
    static func vgm() -> [UInt8] {
        func tone(_ hertz: Double) -> [UInt8] {
            let period = period(hertz)
            return [0x50, UInt8(0x80 | (period & 0x0F)), 0x50, UInt8((period >> 4) & 0x3F)]
        }
        func wait(seconds: Double) -> [UInt8] {
            var samples = Int(seconds * 44_100)
            var out: [UInt8] = []
            while samples > 0 {
                let step = min(samples, 0xFFFF)
                out += [0x61, UInt8(step & 0xFF), UInt8(step >> 8)]
                samples -= step
            }
            return out
        }
        let intro = [0x50, 0x90] + tone(440) + wait(seconds: 1)  // channel 0 at full volume
        let loop = tone(660) + wait(seconds: 0.5) + tone(880) + wait(seconds: 0.5)
        let data = intro + loop + [0x66]
        var header = [UInt8](repeating: 0, count: 0x40)
        func put(_ value: Int, at offset: Int, bytes: Int = 4) {
            for index in 0..<bytes { header[offset + index] = UInt8((value >> (8 * index)) & 0xFF) }
        }
        header.replaceSubrange(0..<4, with: Array("Vgm ".utf8))
        put(0x40 + data.count - 4, at: 0x04)
        put(0x150, at: 0x08)
        put(3_579_545, at: 0x0C)
        put(2 * 44_100, at: 0x18)  // total samples
        put(0x40 + intro.count - 0x1C, at: 0x1C)  // loop offset, from 0x1C
        put(44_100, at: 0x20)  // loop samples
        put(60, at: 0x24)
        put(0x0009, at: 0x28, bytes: 2)  // noise feedback
        header[0x2A] = 16  // shift register width
        put(0x40 - 0x34, at: 0x34)  // data offset, from 0x34
        return header + data
    }

    private static func quantity(_ value: Int) -> [UInt8] {
        var bytes = [UInt8(value & 0x7F)]
        var rest = value >> 7
        while rest > 0 {
            bytes.insert(UInt8(0x80 | (rest & 0x7F)), at: 0)
            rest >>= 7
        }
        return bytes
    }

    private static func be32(_ value: Int) -> [UInt8] {
        [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
