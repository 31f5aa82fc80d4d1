import Foundation

@testable import SoundStation

/// Measurements tests make on rendered samples.
enum AudioAnalysis {
    /// The first frame whose sample on any channel exceeds `threshold` in magnitude.
    static func onset(_ audio: PCMAudio, threshold: Float = 1e-4, from start: Int = 0) -> Int? {
        for frame in start..<audio.frameCount {
            for channel in 0..<audio.channels
            where abs(audio.samples[frame * audio.channels + channel]) > threshold {
                return frame
            }
        }
        return nil
    }

    /// Root mean square of one channel (or all when `channel` is nil) over a frame range.
    static func rms(_ audio: PCMAudio, channel: Int? = nil, frames: Range<Int>? = nil) -> Double {
        let range = frames ?? 0..<audio.frameCount
        var sum = 0.0
        var count = 0
        for frame in range {
            for c in 0..<audio.channels where channel == nil || channel == c {
                let value = Double(audio.samples[frame * audio.channels + c])
                sum += value * value
                count += 1
            }
        }
        return count > 0 ? (sum / Double(count)).squareRoot() : 0
    }

    /// Largest absolute sample.
    static func peak(_ audio: PCMAudio) -> Float {
        audio.samples.reduce(0) { max($0, abs($1)) }
    }

    /// Dominant frequency of one channel from its positive-going zero crossings.
    static func zeroCrossingFrequency(_ audio: PCMAudio, channel: Int = 0, frames: Range<Int>? = nil)
        -> Double
    {
        let range = frames ?? 0..<audio.frameCount
        var crossings = 0
        var previous = audio.samples[range.lowerBound * audio.channels + channel]
        for frame in range.dropFirst() {
            let value = audio.samples[frame * audio.channels + channel]
            if previous <= 0 && value > 0 { crossings += 1 }
            previous = value
        }
        return Double(crossings) * Double(audio.sampleRate) / Double(range.count)
    }

    /// Decibels of `ratio`.
    static func decibels(_ ratio: Double) -> Double { 20 * log10(ratio) }

    /// One channel as its own mono audio.
    static func channel(_ audio: PCMAudio, _ channel: Int) -> PCMAudio {
        let samples = stride(from: channel, to: audio.samples.count, by: audio.channels).map {
            audio.samples[$0]
        }
        return PCMAudio(sampleRate: audio.sampleRate, channels: 1, samples: samples)
    }
}

/// Test signals made in code.
enum Signals {
    static func sine(
        frequency: Double, seconds: Double, sampleRate: Int = 48_000, amplitude: Float = 0.5,
        channels: Int = 1,
        phase: Double = 0
    ) -> PCMAudio {
        let frames = Int(seconds * Double(sampleRate))
        var samples = [Float](repeating: 0, count: frames * channels)
        for frame in 0..<frames {
            let value =
                amplitude * Float(sin(2 * Double.pi * frequency * Double(frame) / Double(sampleRate) + phase))
            for channel in 0..<channels { samples[frame * channels + channel] = value }
        }
        return PCMAudio(sampleRate: sampleRate, channels: channels, samples: samples)
    }
}
