import Foundation
import SoundStation

/// Measurements made on decoded or rendered samples.
enum Measure {
    /// RMS of one channel over a frame range.
    static func rms(_ audio: PCMAudio, frames: Range<Int>? = nil, channel: Int = 0) -> Double {
        let range = frames ?? 0..<audio.frameCount
        guard !range.isEmpty else { return 0 }
        var sum = 0.0
        for frame in range {
            let value = Double(audio.samples[frame * audio.channels + channel])
            sum += value * value
        }
        return (sum / Double(range.count)).squareRoot()
    }

    /// Decibels of an amplitude, with a floor so silence compares as a number.
    static func decibels(_ amplitude: Double) -> Double {
        amplitude > 1e-7 ? 20 * log10(amplitude) : -140
    }

    /// RMS of every `window`-second stretch of channel 0: the loudness contour.
    static func envelope(_ audio: PCMAudio, window: Double = 0.05) -> [Double] {
        let size = max(1, Int(window * Double(audio.sampleRate)))
        return stride(from: 0, to: audio.frameCount - size + 1, by: size).map {
            rms(audio, frames: $0..<$0 + size)
        }
    }

    /// The lag (in windows) at which `recorded` best follows `reference`, and the Pearson
    /// correlation there.
    static func bestAlignment(of reference: [Double], in recorded: [Double]) -> (
        lag: Int, correlation: Double
    ) {
        var best = (lag: 0, correlation: -1.0)
        guard recorded.count >= reference.count else { return best }
        for lag in 0...(recorded.count - reference.count) {
            let r = correlation(reference, Array(recorded[lag..<lag + reference.count]))
            if r > best.correlation { best = (lag, r) }
        }
        return best
    }

    static func correlation(_ a: [Double], _ b: [Double]) -> Double {
        let meanA = a.reduce(0, +) / Double(a.count)
        let meanB = b.reduce(0, +) / Double(b.count)
        var (covariance, varianceA, varianceB) = (0.0, 0.0, 0.0)
        for (x, y) in zip(a, b) {
            covariance += (x - meanA) * (y - meanB)
            varianceA += (x - meanA) * (x - meanA)
            varianceB += (y - meanB) * (y - meanB)
        }
        let denominator = (varianceA * varianceB).squareRoot()
        return denominator > 0 ? covariance / denominator : 0
    }

    /// Amplitude of one frequency in channel 0 over a frame range (Goertzel), 1 for a full-scale sine.
    static func amplitude(of frequency: Double, in audio: PCMAudio, frames: Range<Int>, channel: Int = 0)
        -> Double
    {
        let omega = 2 * Double.pi * frequency / Double(audio.sampleRate)
        let coefficient = 2 * cos(omega)
        var (previous, beforePrevious) = (0.0, 0.0)
        for frame in frames {
            let value =
                Double(audio.samples[frame * audio.channels + channel]) + coefficient * previous
                - beforePrevious
            beforePrevious = previous
            previous = value
        }
        let power =
            previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious
        return 2 * power.squareRoot() / Double(frames.count)
    }
}
