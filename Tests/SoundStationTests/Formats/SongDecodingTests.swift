import Foundation
import SoundStationTesting
import Testing

@testable import SoundStation

/// MIDI files through FluidSynth and the system's General MIDI SoundFont, and chiptune logs through
/// Game Music Emu, on songs written in code (SongFixture): onsets, pitches and loops measured.
@Suite(.enabled(if: (try? SoundFonts.find(named: nil, for: "")) != nil, "needs timgm6mb-soundfont"))
struct SongDecodingTests {
    /// The magnitude of the DFT of `samples` at `hertz`.
    static func magnitude(_ samples: [Float], at hertz: Double, rate: Double = 48_000) -> Double {
        var re = 0.0
        var im = 0.0
        let step = 2 * Double.pi * hertz / rate
        for (index, sample) in samples.enumerated() {
            re += Double(sample) * cos(step * Double(index))
            im -= Double(sample) * sin(step * Double(index))
        }
        return (re * re + im * im).squareRoot()
    }

    /// The strongest frequency within four semitones of `near`, in steps of a sixteenth of a semitone.
    static func strongest(_ samples: [Float], near: Double) -> Double {
        let candidates = (-64...64).map { near * pow(2, Double($0) / 192) }
        return candidates.max { magnitude(samples, at: $0) < magnitude(samples, at: $1) }!
    }

    /// Where the note of `beat` starts: the first 1 ms step, from 50 ms before the beat, whose 2 ms
    /// window is louder than a third of the loudest window in the 0.1 s after the beat (the previous
    /// note's release is far below that by then).
    static func onset(_ left: [Float], near beat: Int) -> Int? {
        func rms(_ start: Int) -> Double {
            let slice = left[start..<start + 96]
            return (slice.reduce(0.0) { $0 + Double($1 * $1) } / 96).squareRoot()
        }
        let loudest = stride(from: beat, to: beat + 4_800, by: 48).map(rms).max() ?? 0
        guard loudest > 0 else { return nil }
        return stride(from: max(beat - 2_400, 0), to: beat + 4_800, by: 48).first { rms($0) > loudest / 3 }
    }

    @Test("a MIDI file of quarter notes at 120 bpm renders an onset every 0.5 s at each note's pitch")
    func midiQuarterNotes() throws {
        let song = SongFixture.midi()
        #expect(try AudioDecoder.detect(song, name: "song.mid") == .midi)
        let audio = try AudioDecoder.decode(bytes: song, name: "song.mid")
        #expect(audio.sampleRate == 48_000 && audio.channels == 2)
        // The song ends at 2 s; a pass adds a second for the last note to fade.
        #expect(audio.frameCount == 3 * 48_000, "\(audio.frameCount) frames")
        let left = DecodingTestSignal.channel(0, of: audio.samples, channels: 2)
        let found = SongFixture.notes.indices.compactMap { Self.onset(left, near: $0 * 24_000) }
        #expect(found.count == SongFixture.notes.count, "onsets \(found)")
        // The first within 5 ms of the start, each next one 0.5 s after it to 5 ms.
        #expect((0...240).contains(found.first ?? -1), "first onset at frame \(found.first ?? -1)")
        for (earlier, later) in zip(found, found.dropFirst()) {
            #expect(abs(later - earlier - 24_000) <= 240, "onsets at \(earlier) and \(later)")
        }
        for (beat, note) in SongFixture.notes.enumerated() {
            let start = beat * 24_000 + 2_400
            let body = Array(left[start..<start + 12_000])
            let expected = SongFixture.frequency(note)
            let heard = Self.strongest(body, near: expected)
            #expect(abs(heard / expected - 1) < 0.015, "note \(note): \(heard) Hz, expected \(expected)")
            #expect(AudioAnalysis.rms(body) > 0.01, "note \(note) is quiet")
        }
    }

    @Test("a streamed MIDI song loops at its controller 111 marker, and seeks to the same samples")
    func midiLoops() throws {
        let song = SongFixture.midi(loopMarker: true)
        let decoder = try AudioDecoder.openStream(
            bytes: song, name: "song.mid", options: DecodingOptions(loopModules: true))
        #expect(decoder.info.frameCount == MIDIDecoder.endlessFrameCount)
        var samples: [Float] = []
        while samples.count < 5 * 48_000 * 2 { samples += try decoder.read(maxFrames: 7_000) }
        let left = DecodingTestSignal.channel(0, of: samples, channels: 2)
        // The song ends at 2 s and comes back to its second note (0.5 s): at 2 s the second note
        // plays again, not the first.
        let loopBody = Array(left[(96_000 + 2_400)..<(96_000 + 14_400)])
        let second = SongFixture.frequency(SongFixture.notes[1])
        #expect(abs(Self.strongest(loopBody, near: second) / second - 1) < 0.015)
        #expect(AudioAnalysis.rms(loopBody) > 0.01)
        // 3.5 s later in the stream is 0.5 s + (3.5 - 0.5) mod 1.5 = 0.5 s into the song again.
        let later = Array(left[(168_000 + 2_400)..<(168_000 + 14_400)])
        #expect(abs(Self.strongest(later, near: second) / second - 1) < 0.015)
        try decoder.seek(toFrame: 30_000)
        let again = try decoder.read(maxFrames: 1_000)
        let fresh = try AudioDecoder.openStream(
            bytes: song, name: "song.mid", options: DecodingOptions(loopModules: true))
        _ = try fresh.read(maxFrames: 30_000)
        #expect(again == (try fresh.read(maxFrames: 1_000)))
    }

    @Test("without a SoundFont a MIDI file is an error naming the Debian package")
    func noSoundFont() throws {
        do {
            _ = try SoundFonts.find(named: nil, for: "song.mid", candidates: ["/nonexistent/a.sf2"])
            Issue.record("found a SoundFont that is not there")
        } catch {
            #expect(
                error.description.contains("timgm6mb-soundfont") && error.description.contains("song.mid"))
        }
        #expect(throws: AudioDecodingError.self) {
            _ = try MIDIDecoder(
                bytes: SongFixture.midi(), name: "song.mid",
                options: DecodingOptions(soundFont: "/nonexistent/x.sf2"))
        }
        #expect(throws: AudioDecodingError.self) {
            _ = try AudioDecoder.decode(bytes: Array(SongFixture.midi().prefix(30)), name: "cut.mid")
        }
    }

    @Test("a VGM log renders one pass of intro and loop, and streamed it loops at its loop offset")
    func vgmLoops() throws {
        let song = SongFixture.vgm()
        #expect(try AudioDecoder.detect(song, name: "song.vgm") == .vgm)
        let pass = try AudioDecoder.decode(bytes: song, name: "song.vgm")
        #expect(pass.sampleRate == 48_000 && pass.channels == 2)
        #expect(abs(pass.frameCount - 96_000) <= 48, "\(pass.frameCount) frames")
        func hertz(_ samples: [Float], _ seconds: Double) -> Double {
            let start = Int(seconds * 48_000) * 2
            let left = DecodingTestSignal.channel(
                0, of: Array(samples[start..<start + 9_600 * 2]), channels: 2)
            return Double(DecodingTestSignal.zeroCrossings(left)) / 2 / 0.2
        }
        #expect(abs(hertz(pass.samples, 0.3) - 440) < 15, "intro \(hertz(pass.samples, 0.3)) Hz")
        #expect(abs(hertz(pass.samples, 1.1) - 660) < 15, "loop \(hertz(pass.samples, 1.1)) Hz")
        #expect(abs(hertz(pass.samples, 1.6) - 880) < 15)

        let decoder = try AudioDecoder.openStream(
            bytes: song, name: "song.vgm", options: DecodingOptions(loopModules: true))
        #expect(decoder.info.frameCount == ChiptuneDecoder.endlessFrameCount)
        var samples: [Float] = []
        while samples.count < 5 * 48_000 * 2 { samples += try decoder.read(maxFrames: 10_000) }
        // After the loop point (2 s) the loop plays again, not the intro: 660 Hz, then 880 Hz.
        for (seconds, expected) in [(2.1, 660.0), (2.6, 880.0), (3.1, 660.0), (4.6, 880.0)] {
            #expect(
                abs(hertz(samples, seconds) - expected) < 15, "\(seconds) s: \(hertz(samples, seconds)) Hz")
            let start = Int(seconds * 48_000) * 2
            #expect(AudioAnalysis.rms(Array(samples[start..<start + 9_600])) > 0.05)
        }
        try decoder.seek(toFrame: 130_000)
        #expect(try decoder.read(maxFrames: 2_000) == Array(samples[260_000..<264_000]))
    }

    @Test("a chiptune track the file does not hold is an error naming the track and the count")
    func missingTrack() throws {
        do {
            _ = try AudioDecoder.decode(
                bytes: SongFixture.vgm(), name: "song.vgm", options: DecodingOptions(track: 2))
            Issue.record("track 2 of 1 decoded")
        } catch {
            #expect(error.description.contains("not track 2") && error.description.contains("song.vgm"))
        }
    }
}
