import Glibc

/// An attack-decay-sustain-release volume shape, in seconds.
///
/// Every synthesised note goes through one, because a tone that starts or stops at a non-zero
/// value clicks; the release also decides how far a note rings past its written length.
struct Envelope: Sendable {
    /// Seconds from silence to full level.
    var attack: Double
    /// Seconds from full level down to `sustain`.
    var decay: Double
    /// The level held while the note is down, in 0...1.
    var sustain: Double
    /// Seconds from note-off to silence.
    var release: Double

    /// The level `time` seconds after note-on, for a note held down for `held` seconds.
    func level(at time: Double, held: Double) -> Double {
        guard time >= 0 else { return 0 }
        if time <= held { return heldLevel(at: time) }
        let progress = (time - held) / max(release, 1e-9)
        guard progress < 1 else { return 0 }
        // A squared fall ends with zero slope, so the tail dies away without a kink.
        let remaining = 1 - progress
        return heldLevel(at: held) * remaining * remaining
    }

    /// How long a note held for `held` seconds sounds, release included.
    func duration(held: Double) -> Double {
        held + release
    }

    /// The level while the key is down: a linear rise, then a curved fall to the sustain level.
    private func heldLevel(at time: Double) -> Double {
        if time < attack { return time / attack }
        let progress = (time - attack) / max(decay, 1e-9)
        guard progress < 1 else { return sustain }
        let remaining = 1 - progress
        return sustain + (1 - sustain) * remaining * remaining
    }
}

/// Shapes used by one-shot effects, where a full ADSR is more than needed.
enum Shape {
    /// An exponential fall with time constant `tau` seconds: how struck or plucked things decay.
    static func decay(_ time: Double, tau: Double) -> Double {
        exp(-time / tau)
    }

    /// A linear rise over `length` seconds that is already non-zero on the first sample, so an
    /// effect is audible from its first millisecond yet still does not start with a step.
    static func rise(_ time: Double, length: Double, sampleRate: Double) -> Double {
        min(1, (time * sampleRate + 1) / max(length * sampleRate, 1))
    }
}
