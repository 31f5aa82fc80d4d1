import CSoundStationRT

/// One channel of one voice's block for ``BiquadLanes``: where its samples are, its biquad's memory
/// and coefficients (the C struct of `ssdsp.h`).
typealias BiquadLane = ssdsp_biquad_lane

extension BiquadLane {
    /// A lane over `frames` samples from `samples`, `stride` apart, starting from the given memory.
    init(
        samples: UnsafeMutablePointer<Float>, stride: Int, frames: Int, x1: Double = 0, x2: Double = 0,
        y1: Double = 0, y2: Double = 0, c: BiquadCoefficients
    ) {
        self.init(
            samples: samples, stride: stride, frames: frames, x1: x1, x2: x2, y1: y1, y2: y2, b0: c.b0,
            b1: c.b1, b2: c.b2, a1: c.a1, a2: c.a2)
    }
}

/// Runs many independent biquads side by side, four lanes at a time (`ssdsp_biquad_lanes`).
///
/// A biquad's output depends on its previous output, so one channel runs as a serial chain (a
/// multiply and a subtract, about 8 cycles per sample); four channels in SIMD lanes share that
/// chain's latency. Each lane does exactly what ``BiquadState/process(_:frames:channels:with:)``
/// does, the same operations in the same order in doubles, nothing fused, so the samples come out
/// bit-identical to the voice-by-voice loop.
enum BiquadLanes {
    /// Filters every lane's samples in place and leaves each lane's memory where its block ended.
    static func run(_ lanes: inout [BiquadLane]) {
        lanes.withUnsafeMutableBufferPointer { ssdsp_biquad_lanes($0.baseAddress, $0.count) }
    }
}
