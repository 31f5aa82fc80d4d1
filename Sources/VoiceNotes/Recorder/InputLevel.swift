import Glibc

/// The loudness of the latest block of input, for a level meter.
public struct InputLevel: Sendable, Equatable {
    /// The largest sample magnitude, in dB relative to full scale (0 is the loudest possible).
    public var peak: Double
    /// The root mean square, in dB relative to full scale; speech near a microphone sits around -30...-15.
    public var rms: Double

    /// The floor both values are clamped to, so digital silence is a number a meter can draw.
    public static let floor = -100.0

    /// Nothing heard yet.
    public static let silence = InputLevel(peak: floor, rms: floor)

    /// Creates a level from decibel values.
    /// - Parameters:
    ///   - peak: Peak level in dBFS.
    ///   - rms: RMS level in dBFS.
    public init(peak: Double, rms: Double) {
        self.peak = peak
        self.rms = rms
    }

    /// Measures interleaved samples in -1...1.
    /// - Parameter samples: The block just captured; all channels count alike.
    public init(measuring samples: [Float]) {
        var largest: Float = 0
        var sum = 0.0
        for sample in samples {
            largest = Swift.max(largest, abs(sample))
            sum += Double(sample) * Double(sample)
        }
        let meanSquare = samples.isEmpty ? 0 : sum / Double(samples.count)
        self.init(peak: Self.decibels(Double(largest)), rms: Self.decibels(meanSquare.squareRoot()))
    }

    /// Where the peak sits on a meter that shows `range` dB below full scale: 0 empty, 1 full.
    /// - Parameter range: The decibels the meter spans; 60 shows everything but the noise floor.
    /// - Returns: The fraction of the meter to fill, 0...1.
    public func meterFraction(range: Double = 60) -> Double {
        Swift.min(1, Swift.max(0, (peak + range) / range))
    }

    /// `20 log10(amplitude)`, clamped to ``floor``.
    /// - Parameter amplitude: A linear amplitude, 1 being full scale.
    /// - Returns: The level in dBFS, ``floor`` (-100) for silence or anything quieter.
    public static func decibels(_ amplitude: Double) -> Double {
        amplitude > 0 ? Swift.max(floor, 20 * log10(amplitude)) : floor
    }
}
