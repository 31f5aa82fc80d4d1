import SoundStation

/// Measures how smoothly a track loops: the jump from the last frame of the loop back to its
/// first, compared with the largest jump anywhere inside the track.
///
/// A seam no rougher than the roughest moment of the music itself cannot be heard as a click.
struct LoopSeam {
    /// The largest sample-to-sample change, over all channels, when playback wraps.
    let seamJump: Float
    /// The largest sample-to-sample change, over all channels, between consecutive frames.
    let largestInsideJump: Float

    /// Whether the seam is no rougher than the track itself.
    var isSmooth: Bool { seamJump <= largestInsideJump }

    /// Measures `audio` looping from frame `loopEnd - 1` back to `loopStart`.
    init(_ audio: PCMAudio, loopStart: Int, loopEnd: Int) {
        let channels = audio.channels
        let end = min(loopEnd, audio.frameCount)
        var seam: Float = 0
        var inside: Float = 0
        if end > loopStart, loopStart >= 0 {
            for channel in 0..<channels {
                seam = max(
                    seam,
                    abs(
                        audio.samples[(end - 1) * channels + channel]
                            - audio.samples[loopStart * channels + channel]))
            }
            for frame in 1..<audio.frameCount {
                for channel in 0..<channels {
                    let step = abs(
                        audio.samples[frame * channels + channel]
                            - audio.samples[(frame - 1) * channels + channel])
                    inside = max(inside, step)
                }
            }
        }
        seamJump = seam
        largestInsideJump = inside
    }
}
