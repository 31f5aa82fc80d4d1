import Glibc

/// A stereo mix in progress, kept in Double so summing hundreds of notes loses no precision.
struct StereoBuffer {
    /// Left channel samples.
    var left: [Double]
    /// Right channel samples.
    var right: [Double]

    /// A silent buffer of `frames` frames.
    init(frames: Int) {
        left = Array(repeating: 0, count: frames)
        right = Array(repeating: 0, count: frames)
    }

    /// The number of frames.
    var frameCount: Int { left.count }

    /// Mixes `sample` into `frame`, placed by `pan` from -1 (left) to 1 (right).
    ///
    /// Constant-power panning keeps a sound equally loud wherever it sits, so moving a part
    /// in the stereo field does not change the balance of the mix.
    mutating func add(_ sample: Double, at frame: Int, pan: Double) {
        guard frame >= 0, frame < left.count else { return }
        let angle = (min(max(pan, -1), 1) + 1) * Double.pi / 4
        left[frame] += sample * cos(angle)
        right[frame] += sample * sin(angle)
    }

    /// Mixes another buffer in, sample by sample, from frame 0.
    mutating func mix(_ other: StereoBuffer, gain: Double = 1) {
        for frame in 0..<min(frameCount, other.frameCount) {
            left[frame] += other.left[frame] * gain
            right[frame] += other.right[frame] * gain
        }
    }

    /// The largest absolute sample in either channel.
    var peak: Double {
        max(left.map(abs).max() ?? 0, right.map(abs).max() ?? 0)
    }
}
