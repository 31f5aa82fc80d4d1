import Glibc

/// A ping-pong echo: each repeat alternates sides and gets a little darker, like tape.
struct Echo: Sendable {
    /// The time between repeats, in beats, so echoes land on the groove.
    var delayBeats: Double
    /// How much of each repeat feeds the next, in 0..<1.
    var feedback: Double
    /// The lowpass cutoff applied on every pass, in Hz.
    var damping: Double

    /// The number of repeats until the echo is inaudible (below -100 dB).
    var audibleRepeats: Int {
        guard feedback > 0 else { return 1 }
        return Int((-5 / log10(feedback)).rounded(.up)) + 1
    }

    /// The wet echo of `send`, the same length as `send`.
    ///
    /// Callers render a tail long enough for the repeats to die away before the end; the loop
    /// wrap then carries the repeats that fall past the loop end back to its start.
    func process(_ send: StereoBuffer, framesPerBeat: Double, sampleRate: Double) -> StereoBuffer {
        let delay = Int((delayBeats * framesPerBeat).rounded())
        var wet = StereoBuffer(frames: send.frameCount)
        var leftTone = OnePoleLowpass(cutoff: damping, sampleRate: sampleRate)
        var rightTone = OnePoleLowpass(cutoff: damping, sampleRate: sampleRate)
        guard delay > 0, delay < send.frameCount else { return wet }
        for frame in delay..<send.frameCount {
            let source = frame - delay
            let input = (send.left[source] + send.right[source]) / 2
            // The first repeat goes left; after that, each side feeds the other.
            wet.left[frame] = leftTone.process(input + feedback * wet.right[source])
            wet.right[frame] = rightTone.process(feedback * wet.left[source])
        }
        return wet
    }
}
