import Foundation

/// One biquad's coefficients (RBJ audio-EQ cookbook), normalised so `a0` is 1.
struct BiquadCoefficients: Equatable {
    var b0 = 1.0
    var b1 = 0.0
    var b2 = 0.0
    var a1 = 0.0
    var a2 = 0.0

    /// The highest cutoff designed, as a share of the rate: the cookbook's formulas lose their
    /// precision at the Nyquist frequency itself, and nothing audible lies above this at 44.1 kHz.
    static let highestCutoff = 0.49

    /// Coefficients that pass samples through unchanged.
    init() {}

    /// The coefficients of `filter` for samples played at `sampleRate`.
    init(_ filter: CutoffFilter, sampleRate: Double) {
        let frequency = min(max(Double(filter.cutoff), 1), sampleRate * Self.highestCutoff)
        let w0 = 2 * Double.pi * frequency / sampleRate
        let (cosine, sine) = (cos(w0), sin(w0))
        let alpha = sine / (2 * Double(filter.q))
        let a0 = 1 + alpha
        switch filter.kind {
        case .lowpass:
            b0 = (1 - cosine) / 2 / a0
            b1 = (1 - cosine) / a0
            b2 = b0
        case .highpass:
            b0 = (1 + cosine) / 2 / a0
            b1 = -(1 + cosine) / a0
            b2 = b0
        case .bandpass:
            // Constant 0 dB peak gain: the centre passes at its level.
            b0 = alpha / a0
            b1 = 0
            b2 = -alpha / a0
        }
        a1 = -2 * cosine / a0
        a2 = (1 - alpha) / a0
    }
}

/// A biquad's memory for up to two channels (transposed direct form II, in doubles so a low cutoff at
/// a high rate keeps its precision).
struct BiquadState {
    var z1 = (0.0, 0.0)
    var z2 = (0.0, 0.0)

    /// Filters `frames` interleaved frames of `channels` (1 or 2) in place from `base`.
    mutating func process(
        _ base: UnsafeMutablePointer<Float>, frames: Int, channels: Int, with c: BiquadCoefficients
    ) {
        if channels == 1 {
            var (s1, s2) = (z1.0, z2.0)
            for i in 0..<frames {
                let x = Double(base[i])
                let y = c.b0 * x + s1
                s1 = c.b1 * x - c.a1 * y + s2
                s2 = c.b2 * x - c.a2 * y
                base[i] = Float(y)
            }
            (z1.0, z2.0) = (s1, s2)
            return
        }
        var (l1, l2, r1, r2) = (z1.0, z2.0, z1.1, z2.1)
        for i in 0..<frames {
            let xl = Double(base[2 * i])
            let xr = Double(base[2 * i + 1])
            let yl = c.b0 * xl + l1
            let yr = c.b0 * xr + r1
            l1 = c.b1 * xl - c.a1 * yl + l2
            l2 = c.b2 * xl - c.a2 * yl
            r1 = c.b1 * xr - c.a1 * yr + r2
            r2 = c.b2 * xr - c.a2 * yr
            base[2 * i] = Float(yl)
            base[2 * i + 1] = Float(yr)
        }
        (z1, z2) = ((l1, r1), (l2, r2))
    }
}

/// A voice's two cutoff filters in series, its own and its bus's, with their memories and the
/// coefficients last designed, following their glides.
struct FilterChain {
    /// Frames between coefficient updates while a cutoff glides (0.7 ms at 48 kHz): fine enough that
    /// the steps are inaudible, coarse enough that the trigonometry costs little.
    static let step = 32

    private struct Stage {
        var state = BiquadState()
        var designed: CutoffFilter?
        var designedRate = 0.0
        var coefficients = BiquadCoefficients()
        /// The dry samples of one step, while a filter comes on or goes off.
        var dry = [Float](repeating: 0, count: 2 * FilterChain.step)

        /// Filters one step's frames with `filter` (nothing when `nil`), `wet` of it heard.
        mutating func run(
            _ filter: CutoffFilter?, wet: Double, rate: Double, _ base: UnsafeMutablePointer<Float>,
            frames: Int, channels: Int
        ) {
            guard let filter else {
                // Off: forget the memory, so turning it on again starts clean.
                if designed != nil { self = Stage() }
                return
            }
            if filter != designed || rate != designedRate {
                coefficients = BiquadCoefficients(filter, sampleRate: rate)
                designed = filter
                designedRate = rate
            }
            let count = frames * channels
            if wet < 1 { for i in 0..<count { dry[i] = base[i] } }
            state.process(base, frames: frames, channels: channels, with: coefficients)
            if wet < 1 {
                let (w, d) = (Float(wet), Float(1 - wet))
                for i in 0..<count { base[i] = base[i] * w + dry[i] * d }
            }
        }
    }

    private var own = Stage()
    private var bus = Stage()

    /// Filters interleaved `samples` heard from render-clock frame `clock` on, each frame lasting
    /// `framesPerSample` render-clock frames.
    /// - Parameters:
    ///   - rate: The rate the samples are heard at (the sound's rate times its pitch), which the
    ///     coefficients are designed for so the cutoff is in hertz as heard.
    mutating func process(
        _ samples: inout [Float], channels: Int, rate: Double, clock: Double, framesPerSample: Double,
        own ownRamp: CutoffRamp?, bus busRamp: CutoffRamp?
    ) {
        let frames = samples.count / max(channels, 1)
        samples.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            // While neither filter glides, the whole block runs in one step.
            let start = Int64(clock)
            let still = (ownRamp?.isDone(at: start) ?? true) && (busRamp?.isDone(at: start) ?? true)
            let step = still ? frames : Self.step
            var done = 0
            while done < frames {
                let length = min(step, frames - done)
                let frame = Int64(clock + Double(done) * framesPerSample)
                let pointer = base + done * channels
                own.run(
                    ownRamp?.value(at: frame), wet: ownRamp?.wet(at: frame) ?? 1, rate: rate, pointer,
                    frames: length, channels: channels)
                bus.run(
                    busRamp?.value(at: frame), wet: busRamp?.wet(at: frame) ?? 1, rate: rate, pointer,
                    frames: length, channels: channels)
                done += length
            }
        }
    }
}
