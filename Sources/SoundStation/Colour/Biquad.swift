import Glibc

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

/// A biquad's memory for up to two channels: the last two inputs and outputs (direct form I, in
/// doubles so a low cutoff at a high rate keeps its precision). Direct form I keeps its memory
/// meaningful while coefficients glide, and its feedback path is one multiply and one subtract per
/// sample, the shortest chain of the forms.
struct BiquadState {
    var x1 = (0.0, 0.0)
    var x2 = (0.0, 0.0)
    var y1 = (0.0, 0.0)
    var y2 = (0.0, 0.0)

    /// Filters `frames` interleaved frames of `channels` (1 or 2) in place from `base`.
    mutating func process(
        _ base: UnsafeMutablePointer<Float>, frames: Int, channels: Int, with c: BiquadCoefficients
    ) {
        if channels == 1 {
            var (a1, a2, b1, b2) = (x1.0, x2.0, y1.0, y2.0)
            for i in 0..<frames {
                let x = Double(base[i])
                // Everything but the newest output first, so the chain from y[n-1] to y[n] is short.
                let rest = c.b0 * x + c.b1 * a1 + c.b2 * a2 - c.a2 * b2
                let y = rest - c.a1 * b1
                (a2, a1, b2, b1) = (a1, x, b1, y)
                base[i] = Float(y)
            }
            (x1.0, x2.0, y1.0, y2.0) = (a1, a2, b1, b2)
            return
        }
        var (lx1, lx2, ly1, ly2) = (x1.0, x2.0, y1.0, y2.0)
        var (rx1, rx2, ry1, ry2) = (x1.1, x2.1, y1.1, y2.1)
        for i in 0..<frames {
            let xl = Double(base[2 * i])
            let xr = Double(base[2 * i + 1])
            let yl = c.b0 * xl + c.b1 * lx1 + c.b2 * lx2 - c.a2 * ly2 - c.a1 * ly1
            let yr = c.b0 * xr + c.b1 * rx1 + c.b2 * rx2 - c.a2 * ry2 - c.a1 * ry1
            (lx2, lx1, ly2, ly1) = (lx1, xl, ly1, yl)
            (rx2, rx1, ry2, ry1) = (rx1, xr, ry1, yr)
            base[2 * i] = Float(yl)
            base[2 * i + 1] = Float(yr)
        }
        (x1, x2, y1, y2) = ((lx1, rx1), (lx2, rx2), (ly1, ry1), (ly2, ry2))
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
        /// Whether the filter last prepared was open: the samples pass untouched.
        var isOpen = false
        /// The dry samples of one step, while a filter comes on or goes off.
        var dry = [Float](repeating: 0, count: 2 * FilterChain.step)

        /// The coefficients for `filter` at `rate`, designed when it changed; `nil` for no filter or
        /// an open one (see ``isOpen(_:rate:)``). No filter forgets the memory, so turning it on again
        /// starts clean; an open one keeps it (see ``passOpen(_:frames:channels:)``).
        mutating func prepare(_ filter: CutoffFilter?, rate: Double) -> BiquadCoefficients? {
            guard let filter else {
                if designed != nil { self = Stage() }
                return nil
            }
            isOpen = Stage.isOpen(filter, rate: rate)
            if isOpen { return nil }
            if filter != designed || rate != designedRate {
                coefficients = BiquadCoefficients(filter, sampleRate: rate)
                designed = filter
                designedRate = rate
            }
            return coefficients
        }

        /// Whether `filter` passes everything at `rate`: a low-pass at or above the Nyquist frequency
        /// with no resonance peak (Q at most Butterworth's) has nothing above its cutoff to remove, so
        /// the samples pass untouched and the biquad is skipped (a game's "no muffle" setting).
        static func isOpen(_ filter: CutoffFilter, rate: Double) -> Bool {
            filter.kind == .lowpass && Double(filter.cutoff) >= rate / 2
                && filter.q <= CutoffFilter.butterworthQ
        }

        /// After frames passed an open filter untouched: its memory holds them as its inputs and its
        /// outputs (what a filter with nothing to remove would have), so a cutoff gliding down from
        /// open goes on from the signal rather than from silence.
        mutating func passOpen(_ base: UnsafeMutablePointer<Float>, frames: Int, channels: Int) {
            guard isOpen, frames > 0 else { return }
            let last = (frames - 1) * channels
            let before = frames > 1 ? last - channels : -1
            func at(_ i: Int, _ fallback: Double) -> Double { i >= 0 ? Double(base[i]) : fallback }
            state.x2.0 = at(before, state.x1.0)
            state.x1.0 = Double(base[last])
            if channels == 2 {
                state.x2.1 = at(before >= 0 ? before + 1 : -1, state.x1.1)
                state.x1.1 = Double(base[last + 1])
            }
            (state.y1, state.y2) = (state.x1, state.x2)
        }

        /// Filters one step's frames with `filter` (nothing when `nil`), `wet` of it heard.
        mutating func run(
            _ filter: CutoffFilter?, wet: Double, rate: Double, _ base: UnsafeMutablePointer<Float>,
            frames: Int, channels: Int
        ) {
            // Off or open: nothing to run.
            guard let coefficients = prepare(filter, rate: rate) else {
                passOpen(base, frames: frames, channels: channels)
                return
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

    /// A block whose filters hold still, ready for ``BiquadLanes``: each stage's coefficients, in
    /// order (own, then bus), `nil` for a stage that is off or open.
    typealias StillPlan = (own: BiquadCoefficients?, bus: BiquadCoefficients?)

    /// Prepares a block heard from render-clock frame `clock` that neither filter glides or fades in:
    /// designs the coefficients and forgets a stage switched off, exactly as ``process`` would before
    /// filtering it in one step. `nil` while either filter glides or fades: ``process`` must run the
    /// block step by step.
    mutating func stillPlan(rate: Double, clock: Double, own ownRamp: CutoffRamp?, bus busRamp: CutoffRamp?)
        -> StillPlan?
    {
        let start = Int64(clock)
        guard ownRamp?.isDone(at: start) ?? true, busRamp?.isDone(at: start) ?? true else { return nil }
        // A ramp that is done holds its target and is wholly wet.
        return (
            own.prepare(ownRamp?.value(at: start), rate: rate),
            bus.prepare(busRamp?.value(at: start), rate: rate)
        )
    }

    /// Appends to `lanes` the lanes that run stage `bus` (else the voice's own) with
    /// `coefficients` over `frames` interleaved frames at `base`: one per channel, starting from the
    /// stage's memory (appended, not returned: an array per voice per block was an allocation).
    func appendLanes(
        to lanes: inout [BiquadLane], bus isBus: Bool, _ coefficients: BiquadCoefficients,
        _ base: UnsafeMutablePointer<Float>, frames: Int, channels: Int
    ) {
        let state = isBus ? bus.state : own.state
        lanes.append(
            BiquadLane(
                samples: base, stride: channels, frames: frames, x1: state.x1.0, x2: state.x2.0,
                y1: state.y1.0,
                y2: state.y2.0, c: coefficients))
        if channels == 2 {
            lanes.append(
                BiquadLane(
                    samples: base + 1, stride: 2, frames: frames, x1: state.x1.1, x2: state.x2.1,
                    y1: state.y1.1,
                    y2: state.y2.1, c: coefficients))
        }
    }

    /// After a still block ran through ``BiquadLanes``: the memory of a stage that was open follows
    /// the samples that passed it.
    mutating func passOpen(bus isBus: Bool, _ base: UnsafeMutablePointer<Float>, frames: Int, channels: Int) {
        if isBus {
            bus.passOpen(base, frames: frames, channels: channels)
        } else {
            own.passOpen(base, frames: frames, channels: channels)
        }
    }

    /// Keeps the memory `lanes` (from ``lanes(bus:_:_:frames:channels:)``) ended with.
    mutating func keep(_ lanes: ArraySlice<BiquadLane>, bus isBus: Bool) {
        guard let left = lanes.first else { return }
        let right = lanes.count > 1 ? lanes[lanes.startIndex + 1] : left
        let state = BiquadState(
            x1: (left.x1, right.x1), x2: (left.x2, right.x2), y1: (left.y1, right.y1), y2: (left.y2, right.y2)
        )
        if isBus { bus.state = state } else { own.state = state }
    }

    /// Filters interleaved `samples` heard from render-clock frame `clock` on, each frame lasting
    /// `framesPerSample` render-clock frames, for a voice heard since `origin`.
    /// - Parameters:
    ///   - rate: The rate the samples are heard at (the sound's rate times its pitch), which the
    ///     coefficients are designed for so the cutoff is in hertz as heard.
    mutating func process(
        _ samples: inout [Float], channels: Int, rate: Double, clock: Double, framesPerSample: Double,
        own ownRamp: CutoffRamp?, bus busRamp: CutoffRamp?, heardSince origin: Int64
    ) {
        let frames = samples.count / max(channels, 1)
        samples.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            process(
                base, frames: frames, channels: channels, rate: rate, clock: clock,
                framesPerSample: framesPerSample, own: ownRamp, bus: busRamp, heardSince: origin)
        }
    }

    /// ``process(_:channels:rate:clock:framesPerSample:own:bus:heardSince:)`` on `frames` frames at
    /// `base`.
    mutating func process(
        _ base: UnsafeMutablePointer<Float>, frames: Int, channels: Int, rate: Double, clock: Double,
        framesPerSample: Double, own ownRamp: CutoffRamp?, bus busRamp: CutoffRamp?, heardSince origin: Int64
    ) {
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
                ownRamp?.value(at: frame), wet: ownRamp?.wet(at: frame, heardSince: origin) ?? 1,
                rate: rate, pointer,
                frames: length, channels: channels)
            bus.run(
                busRamp?.value(at: frame), wet: busRamp?.wet(at: frame, heardSince: origin) ?? 1,
                rate: rate, pointer,
                frames: length, channels: channels)
            done += length
        }
    }
}
