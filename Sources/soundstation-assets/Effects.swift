import Glibc
import SoundStation

/// The demo game's sound effects: short mono one-shots.
///
/// Each one lives in its own part of the spectrum (a low thud, a mid arpeggio, a high chime,
/// a very high click) so that in a busy mix the ear, and the tests, can tell them apart.
enum Effects {
    /// The rate every effect is rendered at.
    static let sampleRate = 48_000.0

    /// Two bell strikes a fourth apart, high and glassy (about 2-2.6 kHz): something good happened.
    static func reward() -> [Double] {
        render(seconds: 0.8) { time in
            var value = 0.0
            for (pitch, start) in [(1_975.53, 0.0), (2_637.02, 0.09)] where time >= start {
                let local = time - start
                // A decaying FM index makes the strike bright and the ring pure, like a real bell.
                let index = 1.1 * Shape.decay(local, tau: 0.1)
                let phase = 2 * Double.pi * pitch * local
                let strike = cos(phase + index * sin(3.5 * phase))
                value +=
                    strike * Shape.decay(local, tau: 0.22)
                    * Shape.rise(local, length: 0.0015, sampleRate: sampleRate)
            }
            return value
        }
    }

    /// A quick rising C major arpeggio over two octaves (523-1568 Hz): an item got better.
    static func upgrade() -> [Double] {
        let pitches = [72, 76, 79, 84, 88, 91]
        let spacing = 0.065
        var voices = pitches.map { _ in Oscillator(.pulse(duty: 0.25)) }
        var filter = Biquad(.lowpass, cutoff: 5_000, sampleRate: sampleRate)
        return render(seconds: 0.75) { time in
            var value = 0.0
            for (index, pitch) in pitches.enumerated() where time >= Double(index) * spacing {
                let local = time - Double(index) * spacing
                let ring = index == pitches.count - 1 ? 0.2 : 0.09
                let level =
                    Shape.decay(local, tau: ring) * Shape.rise(local, length: 0.002, sampleRate: sampleRate)
                value +=
                    voices[index].next(
                        frequency: frequency(ofMIDINote: Double(pitch)), sampleRate: sampleRate)
                    * level
            }
            return filter.process(value)
        }
    }

    /// A square wave sweeping up from 450 to 1350 Hz: the classic platformer jump.
    static func jump() -> [Double] {
        var voice = Oscillator(.pulse(duty: 0.5), phase: 0.1)
        var filter = OnePoleLowpass(cutoff: 3_000, sampleRate: sampleRate)
        return render(seconds: 0.3) { time in
            let pitch = 450 * pow(3, min(time / 0.22, 1))
            // Holding full level through the sweep spreads the energy over the whole rise
            // instead of piling it up at the low start.
            let level =
                (time < 0.15 ? 1 : Shape.decay(time - 0.15, tau: 0.05))
                * Shape.rise(time, length: 0.001, sampleRate: sampleRate)
            return filter.process(voice.next(frequency: pitch, sampleRate: sampleRate)) * level
        }
    }

    /// B5 then E6 on a square wave: the coin pickup every arcade player knows by heart.
    static func coin() -> [Double] {
        let switchTime = 0.075
        var voice = Oscillator(.pulse(duty: 0.5), phase: 0.1)
        var filter = OnePoleLowpass(cutoff: 6_000, sampleRate: sampleRate)
        return render(seconds: 0.5) { time in
            let pitch = time < switchTime ? 987.77 : 1_318.51
            let level =
                (time < switchTime ? 1 : Shape.decay(time - switchTime, tau: 0.13))
                * Shape.rise(time, length: 0.001, sampleRate: sampleRate)
            return filter.process(voice.next(frequency: pitch, sampleRate: sampleRate)) * 0.8 * level
        }
    }

    /// A low, fast pitch drop with a puff of muffled noise (mostly below 200 Hz): taking damage.
    static func hit() -> [Double] {
        var body = Oscillator(.sine, phase: 0.25)
        var random = SplitMix64(seed: 0x4849_5421)
        var muffle = Biquad(.lowpass, cutoff: 700, sampleRate: sampleRate)
        return render(seconds: 0.2) { time in
            let pitch = 55 + 120 * Shape.decay(time, tau: 0.02)
            let thud = body.next(frequency: pitch, sampleRate: sampleRate) * Shape.decay(time, tau: 0.06)
            let puff = muffle.process(random.bipolar()) * 1.5 * Shape.decay(time, tau: 0.025)
            return (thud + puff) * Shape.rise(time, length: 0.001, sampleRate: sampleRate)
        }
    }

    /// Crunchy noise whose brightness falls away over a deep rumble: a bomb going off.
    static func explosion() -> [Double] {
        var crunch = SteppedNoise(seed: 0x424F_4F4D)
        var darken = Biquad(.lowpass, cutoff: 4_000, q: 0.9, sampleRate: sampleRate)
        var rumble = Oscillator(.sine, phase: 0.25)
        return render(seconds: 1.2) { time in
            darken.setCutoff(150 + 3_800 * Shape.decay(time, tau: 0.22), q: 0.9)
            let noise = darken.process(crunch.next(rate: 14_000, sampleRate: sampleRate))
            let low = rumble.next(frequency: 38 + 40 * Shape.decay(time, tau: 0.08), sampleRate: sampleRate)
            let value = noise * 1.4 * Shape.decay(time, tau: 0.32) + 0.6 * low * Shape.decay(time, tau: 0.4)
            return value * Shape.rise(time, length: 0.002, sampleRate: sampleRate)
        }
    }

    /// A 32 ms tick of very high noise and a 6 kHz ping (above every other effect): a UI button.
    static func click() -> [Double] {
        var random = SplitMix64(seed: 0x434C_4943_4B)
        var air = Biquad(.highpass, cutoff: 5_000, sampleRate: sampleRate)
        return render(seconds: 0.032) { time in
            let noise = air.process(random.bipolar()) * Shape.decay(time, tau: 0.004)
            let ping = cos(2 * Double.pi * 6_200 * time) * 0.5 * Shape.decay(time, tau: 0.006)
            return (noise + ping) * Shape.rise(time, length: 0.0008, sampleRate: sampleRate)
        }
    }

    /// Three quick G4s and a held C major chord on brassy saws: the player levelled up.
    static func levelUp() -> [Double] {
        let shortNote = Envelope(attack: 0.008, decay: 0.05, sustain: 0.7, release: 0.04)
        let longNote = Envelope(attack: 0.015, decay: 0.15, sustain: 0.75, release: 0.22)
        let notes: [(pitch: Int, start: Double, held: Double, envelope: Envelope)] = [
            (67, 0, 0.08, shortNote), (67, 0.11, 0.08, shortNote), (67, 0.22, 0.08, shortNote),
            (60, 0.33, 0.45, longNote), (64, 0.33, 0.45, longNote), (67, 0.33, 0.45, longNote),
            (72, 0.33, 0.45, longNote),
        ]
        var voices = notes.map { _ in (Oscillator(.saw), Oscillator(.saw, phase: 0.5)) }
        var filters = notes.map { _ in Biquad(.lowpass, cutoff: 1_000, sampleRate: sampleRate) }
        return render(seconds: 1.05) { time in
            var value = 0.0
            for (index, note) in notes.enumerated() where time >= note.start {
                let local = time - note.start
                let level = note.envelope.level(at: local, held: note.held)
                guard level > 0 else { continue }
                let vibrato = local > 0.2 ? 0.12 * sin(2 * Double.pi * 5.5 * local) : 0
                let pitch = frequency(ofMIDINote: Double(note.pitch) + vibrato)
                let pair =
                    voices[index].0.next(frequency: pitch, sampleRate: sampleRate)
                    + voices[index].1.next(frequency: pitch * 1.004, sampleRate: sampleRate)
                // Brass brightens as it gets louder, so the filter opens with the envelope.
                filters[index].setCutoff(700 + 3_200 * level)
                value += filters[index].process(pair) * level
            }
            return value
        }
    }

    /// A wobbling tone falling from 300 to 90 Hz, below the jump: a missed shot or a wrong answer.
    static func miss() -> [Double] {
        var hollow = Oscillator(.triangle, phase: 0.1)
        var edge = Oscillator(.pulse(duty: 0.5), phase: 0.1)
        var filter = OnePoleLowpass(cutoff: 2_500, sampleRate: sampleRate)
        return render(seconds: 0.5) { time in
            let wobble = 0.35 * sin(2 * Double.pi * 11 * time)
            let pitch = 300 * pow(0.3, time / 0.45) * pow(2, wobble / 12)
            let tone =
                hollow.next(frequency: pitch, sampleRate: sampleRate)
                + 0.3 * edge.next(frequency: pitch, sampleRate: sampleRate)
            let level = Shape.decay(time, tau: 0.3) * Shape.rise(time, length: 0.002, sampleRate: sampleRate)
            return filter.process(tone) * level
        }
    }

    /// A 60 ms metallic tick around 3.4 kHz, dry and narrow so it cuts through any mix.
    static func bombTick() -> [Double] {
        var random = SplitMix64(seed: 0x5449_434B)
        var ring = Biquad(.bandpass, cutoff: 3_400, q: 4, sampleRate: sampleRate)
        return render(seconds: 0.06) { time in
            let tone =
                cos(2 * Double.pi * 3_400 * time) * Shape.decay(time, tau: 0.009)
                + 0.4 * cos(2 * Double.pi * 5_150 * time) * Shape.decay(time, tau: 0.005)
            let tap = ring.process(random.bipolar()) * 0.8 * Shape.decay(time, tau: 0.003)
            return (tone + tap) * Shape.rise(time, length: 0.0005, sampleRate: sampleRate)
        }
    }

    /// Samples `seconds` of `voice` (called once per sample, in order, with the time) and
    /// finishes them: a short fade to exactly zero, then 3 ms of silence so a codec cannot
    /// smear the last sound past the end of the file.
    private static func render(seconds: Double, _ voice: (Double) -> Double) -> [Double] {
        let total = Int((seconds * sampleRate).rounded())
        let silence = Int(0.003 * sampleRate)
        var samples = (0..<(total - silence)).map { voice(Double($0) / sampleRate) }
        fadeOut(&samples, seconds: min(0.006, seconds / 5), sampleRate: sampleRate)
        return samples + repeatElement(0, count: silence)
    }
}
