import Foundation

@testable import SoundStation

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
