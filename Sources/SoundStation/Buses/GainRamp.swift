import Glibc

/// A gain moving from one level to another over a span of render-clock frames.
///
/// Ramps are evaluated at every housekeeping step, so volume changes, fades and ducking glide
/// instead of jumping (a jump in gain is a click).
struct GainRamp: Equatable {
    /// The shape of the move: linear for volumes, quarter sine/cosine for equal-power crossfades.
    enum Curve: Equatable { case linear, equalPowerIn, equalPowerOut }

    var from: Float
    var to: Float
    var start: Int64
    var end: Int64
    var curve: Curve = .linear

    /// A ramp that already sits at `level`.
    static func constant(_ level: Float) -> GainRamp {
        GainRamp(from: level, to: level, start: 0, end: 0)
    }

    /// The level at `frame`.
    func value(at frame: Int64) -> Float {
        guard frame < end, end > start else { return to }
        guard frame > start else { return from }
        let progress = Float(frame - start) / Float(end - start)
        switch curve {
        case .linear: return from + (to - from) * progress
        case .equalPowerIn: return from + (to - from) * sin(progress * .pi / 2)
        case .equalPowerOut: return to + (from - to) * cos(progress * .pi / 2)
        }
    }

    /// Whether the ramp has reached its target by `frame`.
    func isDone(at frame: Int64) -> Bool { frame >= end }

    /// A ramp from the level at `frame` to `target` over `frames`.
    func retargeted(to target: Float, at frame: Int64, over frames: Int64, curve: Curve = .linear) -> GainRamp
    {
        GainRamp(from: value(at: frame), to: target, start: frame, end: frame + max(frames, 0), curve: curve)
    }
}
