@testable import SoundStation

/// Compares stretches of rendered audio with the sound they should contain.
enum Compare {
    /// The largest difference between `rendered` frames starting at `at` and `source` frames
    /// `from..<to` (both stereo).
    static func largestDifference(_ rendered: PCMAudio, at: Int, _ source: PCMAudio, from: Int, to: Int)
        -> Float
    {
        var largest: Float = 0
        for frame in 0..<(to - from) {
            for channel in 0..<2 {
                let a = rendered.samples[(at + frame) * 2 + channel]
                let b = source.samples[(from + frame) * 2 + channel]
                largest = max(largest, abs(a - b))
            }
        }
        return largest
    }

    /// The largest sample-to-sample step within `frames` of one channel.
    static func largestJump(_ audio: PCMAudio, frames: Range<Int>, channel: Int = 0) -> Float {
        var largest: Float = 0
        for frame in frames.dropFirst() {
            let step =
                audio.samples[frame * audio.channels + channel]
                - audio.samples[(frame - 1) * audio.channels + channel]
            largest = max(largest, abs(step))
        }
        return largest
    }
}
