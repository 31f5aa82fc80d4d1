import Foundation
import SoundStation

/// Deterministic test material: a chiptune-like stereo track of any length, encoded with the
/// library's ``VorbisEncoder``, and a speech-like signal for when espeak-ng is not installed.
enum Synth {
    /// Writes stereo music from `startSecond` for `seconds` to an Ogg Vorbis file at quality 0.4,
    /// synthesising and encoding one block at a time so memory stays small whatever the length.
    ///
    /// The music is a function of time alone, so a long track can be encoded in parts at once and the
    /// parts' files joined into one chained Ogg stream (each part then needs its own serial number).
    /// - Parameters:
    ///   - path: The file to create.
    ///   - startSecond: Where in the music the file begins.
    ///   - seconds: The file's length.
    ///   - serialNumber: The Ogg stream serial of this part.
    static func writeTrack(
        to path: String, from startSecond: Int = 0, seconds: Int, serialNumber: Int32 = 0x5353
    )
        throws
    {
        let rate = 48_000
        let encoder = try VorbisEncoder(
            path: path, sampleRate: rate, channels: 2, quality: 0.4, serialNumber: serialNumber)
        let song = Song(sampleRate: rate)
        let end = (startSecond + seconds) * rate
        var frame = startSecond * rate
        var samples: [Float] = []
        while frame < end {
            let frames = min(4_800, end - frame)
            song.render(into: &samples, from: frame, frames: frames)
            try encoder.write(samples)
            frame += frames
        }
        try encoder.finish()
    }

    /// A four-chord loop at 120 bpm: triangle bass, a square arpeggio on the left, a saw pad on the
    /// right and a noise hat, so the encoder and decoder see music-like spectra.
    private struct Song {
        let rate: Int
        /// Per chord: the bass, the three arpeggio notes and the three pad notes, in cycles per frame.
        let increments: [[Double]]
        /// The arpeggio's decay over one step (an eighth of a bar) and the hat's over one beat.
        let arpEnvelope: [Float]
        let hatEnvelope: [Float]

        init(sampleRate: Int) {
            rate = sampleRate
            // Semitones above A4 of each chord's root, third and fifth.
            let chords: [[Double]] = [[0, 3, 7], [-4, 0, 3], [-9, -5, -2], [-2, 2, 5]]
            increments = chords.map { chord in
                let bass = [110 * pow(2, chord[0] / 12 - 1)]
                let arp = chord.map { 440 * pow(2, $0 / 12) }
                let pad = chord.map { 220 * pow(2, $0 / 12) }
                return (bass + arp + pad).map { $0 / Double(sampleRate) }
            }
            let step = sampleRate / 8
            arpEnvelope = (0..<step).map { Float(exp(-8 * Double($0) / Double(step))) }
            hatEnvelope = (0..<sampleRate / 2).map { Float(exp(-40 * Double($0) / Double(sampleRate / 2))) }
        }

        /// Fills `samples` with `frames` interleaved stereo frames starting at `start`.
        func render(into samples: inout [Float], from start: Int, frames: Int) {
            if samples.count != frames * 2 { samples = [Float](repeating: 0, count: frames * 2) }
            let bar = rate * 2
            let step = rate / 8
            let beat = rate / 2
            for i in 0..<frames {
                let frame = start + i
                let notes = increments[(frame / bar) % increments.count]
                let position = Double(frame)
                func phase(_ increment: Double) -> Double {
                    let cycles = position * increment
                    return cycles - cycles.rounded(.down)
                }
                let bassPhase = phase(notes[0])
                let bass = Float(bassPhase < 0.5 ? 4 * bassPhase - 1 : 3 - 4 * bassPhase) * 0.35
                let arp =
                    (phase(notes[1 + (frame / step) % 3]) < 0.5 ? 0.12 : -0.12) * arpEnvelope[frame % step]
                let pad = Float(2 * (phase(notes[4]) + phase(notes[5]) + phase(notes[6])) - 3) * 0.05
                var noise = UInt32(truncatingIfNeeded: frame) &* 2_654_435_761
                noise ^= noise >> 15
                let hat = (Float(noise >> 8) / Float(1 << 24) * 2 - 1) * 0.08 * hatEnvelope[frame % beat]
                samples[2 * i] = bass + arp * 0.9 + pad * 0.4 + hat
                samples[2 * i + 1] = bass + arp * 0.4 + pad * 0.9 + hat
            }
        }
    }

    /// A speech-like mono signal: a voiced source with a wandering pitch, shaped by two moving
    /// formants into syllables separated by short pauses. Used only when espeak-ng is missing.
    /// - Parameters:
    ///   - seconds: The length.
    ///   - sampleRate: Frames per second.
    /// - Returns: The samples.
    static func speech(seconds: Double, sampleRate: Int) -> PCMAudio {
        let rate = Double(sampleRate)
        let count = Int(seconds * rate)
        var samples = [Float](repeating: 0, count: count)
        var phase = 0.0
        let vowels: [(Double, Double)] = [(730, 1090), (270, 2290), (530, 1840), (570, 840), (300, 870)]
        for i in 0..<count {
            let t = Double(i) / rate
            let syllable = Int(t / 0.18)
            let within = t.truncatingRemainder(dividingBy: 0.18) / 0.18
            let pause = syllable % 7 == 6
            let f0 = 120 + 20 * sin(2 * Double.pi * 0.7 * t) + Double(syllable % 5) * 4
            phase = (phase + f0 / rate).truncatingRemainder(dividingBy: 1)
            let (first, second) = vowels[syllable % vowels.count]
            var value = 0.0
            var harmonic = 1
            while Double(harmonic) * f0 < rate / 2 - 200, harmonic <= 40 {
                let frequency = Double(harmonic) * f0
                let gain =
                    exp(-pow((frequency - first) / 120, 2)) + 0.5 * exp(-pow((frequency - second) / 160, 2))
                value += gain * sin(2 * Double.pi * Double(harmonic) * phase) / Double(harmonic).squareRoot()
                harmonic += 1
            }
            let envelope = pause ? 0 : sin(Double.pi * within)
            samples[i] = Float(value * envelope * 0.25)
        }
        return PCMAudio(sampleRate: sampleRate, channels: 1, samples: samples)
    }
}
