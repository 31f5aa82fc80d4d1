import Glibc

/// A two-pole "biquad" filter using the Audio EQ Cookbook formulas (R. Bristow-Johnson).
///
/// Per-voice filters soften bright waveforms and shape noise into drums and explosions; the
/// cutoff can move while running for sweeps.
struct Biquad {
    /// The response a biquad can be set up for.
    enum Response {
        /// Passes everything below the cutoff.
        case lowpass
        /// Passes everything above the cutoff.
        case highpass
        /// Passes a band around the cutoff, peaking at 0 dB.
        case bandpass
    }

    private let response: Response
    private let sampleRate: Double
    private var b0 = 0.0
    private var b1 = 0.0
    private var b2 = 0.0
    private var a1 = 0.0
    private var a2 = 0.0
    private var x1 = 0.0
    private var x2 = 0.0
    private var y1 = 0.0
    private var y2 = 0.0

    /// Creates a filter at rest.
    /// - Parameters:
    ///   - response: Lowpass, highpass or bandpass.
    ///   - cutoff: The corner (or centre) frequency in Hz.
    ///   - q: Resonance; 0.707 is flat, higher rings at the cutoff.
    ///   - sampleRate: Samples per second.
    init(_ response: Response, cutoff: Double, q: Double = 0.707, sampleRate: Double) {
        self.response = response
        self.sampleRate = sampleRate
        setCutoff(cutoff, q: q)
    }

    /// Moves the cutoff, keeping the filter's memory so a sweep stays smooth.
    mutating func setCutoff(_ cutoff: Double, q: Double = 0.707) {
        let clamped = min(max(cutoff, 10), sampleRate * 0.45)
        let omega = 2 * Double.pi * clamped / sampleRate
        let alpha = sin(omega) / (2 * q)
        let cosine = cos(omega)
        let a0 = 1 + alpha
        switch response {
        case .lowpass:
            b0 = (1 - cosine) / 2
            b1 = 1 - cosine
            b2 = b0
        case .highpass:
            b0 = (1 + cosine) / 2
            b1 = -(1 + cosine)
            b2 = b0
        case .bandpass:
            b0 = alpha
            b1 = 0
            b2 = -alpha
        }
        b0 /= a0
        b1 /= a0
        b2 /= a0
        a1 = -2 * cosine / a0
        a2 = (1 - alpha) / a0
    }

    /// Filters one sample.
    mutating func process(_ input: Double) -> Double {
        let output = b0 * input + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2
        x2 = x1
        x1 = input
        y2 = y1
        y1 = output
        return output
    }
}

/// A one-pole lowpass: a gentle 6 dB/octave slope that takes the edge off without ringing.
struct OnePoleLowpass {
    private let coefficient: Double
    private var state = 0.0

    /// Creates the filter with its -3 dB point at `cutoff` Hz.
    init(cutoff: Double, sampleRate: Double) {
        coefficient = 1 - exp(-2 * Double.pi * cutoff / sampleRate)
    }

    /// Filters one sample.
    mutating func process(_ input: Double) -> Double {
        state += coefficient * (input - state)
        return state
    }
}
