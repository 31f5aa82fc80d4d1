import Glibc
import SoundStation

/// The basic shapes a tone can have.
enum Waveform: Sendable {
    /// A pure tone: soft, used for bells, sub-bass and pitch drops.
    case sine
    /// Hollow and mellow, the classic console bass.
    case triangle
    /// Bright and buzzy, used for brass-like fanfares.
    case saw
    /// A square wave of the given duty cycle (0.5 is square; 0.125 and 0.25 sound thinner).
    case pulse(duty: Double)
}

/// A phase-accumulating oscillator.
///
/// Keeping the phase between samples lets the frequency change every sample (sweeps, vibrato,
/// two-tone coins) without the clicks that recomputing `sin(2πft)` with a new `f` would cause.
struct Oscillator {
    /// The shape produced.
    let waveform: Waveform
    /// The position in the current cycle, in 0..<1.
    private(set) var phase: Double

    /// Creates an oscillator; a start phase of 0.25 makes a sine begin at its peak, which
    /// percussive effects use so their very first sample is already audible.
    init(_ waveform: Waveform, phase: Double = 0) {
        self.waveform = waveform
        self.phase = phase - phase.rounded(.down)
    }

    /// Returns the current sample in -1...1 and advances by one sample at `frequency` Hz.
    mutating func next(frequency: Double, sampleRate: Double) -> Double {
        let increment = min(max(frequency / sampleRate, 0), 0.5)
        let value = Self.value(of: waveform, at: phase, increment: increment)
        phase += increment
        if phase >= 1 { phase -= 1 }
        return value
    }

    /// One sample of `waveform`; `increment` is the phase step, which sets how wide the
    /// anti-aliasing correction around each jump has to be.
    static func value(of waveform: Waveform, at phase: Double, increment: Double) -> Double {
        switch waveform {
        case .sine:
            return sin(2 * Double.pi * phase)
        case .triangle:
            // Starts at zero like a sine, so notes fade in without a step.
            if phase < 0.25 { return 4 * phase }
            if phase < 0.75 { return 2 - 4 * phase }
            return 4 * phase - 4
        case .saw:
            return 2 * phase - 1 - polyBLEP(phase, increment)
        case .pulse(let duty):
            var value = phase < duty ? 1.0 : -1.0
            value += polyBLEP(phase, increment)
            var fall = phase - duty
            if fall < 0 { fall += 1 }
            value -= polyBLEP(fall, increment)
            // A narrow pulse sits off-centre; removing its average stops envelopes from
            // turning that offset into a low thump.
            return value - (2 * duty - 1)
        }
    }

    /// The polynomial band-limited step correction: it rounds off the jump of a square or saw
    /// over one sample on each side, which removes most of the harsh aliasing at 48 kHz.
    private static func polyBLEP(_ phase: Double, _ increment: Double) -> Double {
        guard increment > 0 else { return 0 }
        if phase < increment {
            let x = phase / increment
            return x + x - x * x - 1
        }
        if phase > 1 - increment {
            let x = (phase - 1) / increment
            return x * x + x + x + 1
        }
        return 0
    }
}

/// Noise that holds each random value for a while, like the noise channel of old consoles:
/// a lower `rate` gives a grainier, crunchier texture than plain white noise.
struct SteppedNoise {
    private var random: SplitMix64
    private var held = 0.0
    private var countdown = 0.0

    /// Creates a noise source with its own seeded generator.
    init(seed: UInt64) {
        random = SplitMix64(seed: seed)
    }

    /// The next sample; a new random value is drawn `rate` times per second.
    mutating func next(rate: Double, sampleRate: Double) -> Double {
        countdown -= rate / sampleRate
        if countdown <= 0 {
            held = random.bipolar()
            countdown += 1
            if countdown <= 0 { countdown = 1 }
        }
        return held
    }
}

/// Converts a MIDI note number to Hz (69 is A4 = 440 Hz, equal temperament).
func frequency(ofMIDINote note: Double) -> Double {
    440 * pow(2, (note - 69) / 12)
}
