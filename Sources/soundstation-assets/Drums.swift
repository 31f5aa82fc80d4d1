import Glibc
import SoundStation

/// The drum sounds of the songs, each synthesised from scratch per hit.
enum Drum: Sendable {
    /// A sine whose pitch drops fast: the punchy retro kick.
    case kick
    /// Band-passed noise over a short low tone.
    case snare
    /// A very short burst of high noise.
    case closedHat
    /// A longer, ringing burst of high noise.
    case openHat

    /// How long one hit lasts, in seconds.
    var duration: Double {
        switch self {
        case .kick: return 0.32
        case .snare: return 0.24
        case .closedHat: return 0.07
        case .openHat: return 0.28
        }
    }

    /// One hit at full velocity, mono.
    /// - Parameters:
    ///   - random: Supplies the noise; drawing from the song's generator keeps every hit
    ///     slightly different yet the whole song reproducible.
    ///   - sampleRate: Samples per second.
    func render(random: inout SplitMix64, sampleRate: Double) -> [Double] {
        let count = Int(duration * sampleRate)
        var samples = [Double](repeating: 0, count: count)
        var body = Oscillator(.sine)
        var bandpass = Biquad(.bandpass, cutoff: 1_900, q: 0.9, sampleRate: sampleRate)
        var highpass = Biquad(.highpass, cutoff: 7_000, q: 0.8, sampleRate: sampleRate)
        for index in 0..<count {
            let time = Double(index) / sampleRate
            let noise = random.bipolar()
            let value: Double
            switch self {
            case .kick:
                let pitch = 48 + 130 * Shape.decay(time, tau: 0.028)
                value = body.next(frequency: pitch, sampleRate: sampleRate) * Shape.decay(time, tau: 0.11)
            case .snare:
                let tone = body.next(frequency: 190, sampleRate: sampleRate) * Shape.decay(time, tau: 0.035)
                let rattle = bandpass.process(noise) * 1.6 * Shape.decay(time, tau: 0.065)
                value = 0.55 * tone + rattle
            case .closedHat:
                value = highpass.process(noise) * Shape.decay(time, tau: 0.014)
            case .openHat:
                value = highpass.process(noise) * Shape.decay(time, tau: 0.07)
            }
            samples[index] = value * Shape.rise(time, length: 0.001, sampleRate: sampleRate)
        }
        fadeOut(&samples, seconds: 0.01, sampleRate: sampleRate)
        return samples
    }
}

/// Fades the last `seconds` of `samples` to exactly zero, so whatever is left of a decay
/// does not end in a step.
func fadeOut(_ samples: inout [Double], seconds: Double, sampleRate: Double) {
    let length = min(samples.count, Int(seconds * sampleRate))
    guard length > 0 else { return }
    let start = samples.count - length
    for index in start..<samples.count {
        let remaining = Double(samples.count - 1 - index) / Double(length)
        samples[index] *= remaining * remaining
    }
}
