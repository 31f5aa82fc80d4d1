import Glibc

/// A filter with a real cutoff in hertz: low-pass, high-pass or band-pass, with a resonance (Q).
///
/// The engine runs it itself (a biquad from the RBJ audio-EQ cookbook, 12 dB per octave), on the
/// samples it feeds OpenAL, so it works on any device and keeps offline renders byte-identical.
/// Use it through ``SoundFilter/lowpass(cutoff:q:)``, ``SoundFilter/highpass(cutoff:q:)`` and
/// ``SoundFilter/bandpass(center:q:)``.
public struct CutoffFilter: Sendable, Equatable, CustomStringConvertible {
    /// What the filter lets through.
    public enum Kind: String, Sendable, CaseIterable {
        /// What lies below the cutoff.
        case lowpass
        /// What lies above the cutoff.
        case highpass
        /// What lies around the cutoff (its centre), the band narrowing as Q grows.
        case bandpass
    }

    /// The resonance of a Butterworth filter (1/√2): flat pass band, no peak at the cutoff.
    public static let butterworthQ: Float = 0.707_106_77

    /// What the filter lets through.
    public var kind: Kind
    /// Hertz: where a low- or high-pass is 3 dB down (at ``butterworthQ``), or a band-pass's centre.
    public var cutoff: Float
    /// The resonance: ``butterworthQ`` is flat; higher values peak at the cutoff (a radio voice).
    public var q: Float

    /// Creates a filter.
    /// - Parameters:
    ///   - kind: Low-pass, high-pass or band-pass.
    ///   - cutoff: Hertz, above 0 and at most half the engine's sample rate.
    ///   - q: Above 0; ``butterworthQ`` by default.
    public init(_ kind: Kind, cutoff: Float, q: Float = butterworthQ) {
        self.kind = kind
        self.cutoff = cutoff
        self.q = q
    }

    /// The highest Q accepted: beyond it a filter rings for seconds and peaks by more than 40 dB.
    public static let maxQ: Float = 100

    /// Throws for a cutoff that is not a number above 0 and at most half `sampleRate`, or a Q that is
    /// not a number in 0 < Q ≤ ``maxQ``.
    /// - Parameter sampleRate: The engine's rate; `nil` checks only that the cutoff is positive.
    /// - Throws: ``AudioEngineError/invalidArgument(name:value:expected:)`` naming the value.
    public func check(sampleRate: Int? = nil) throws(AudioEngineError) {
        if let sampleRate {
            try SoundFilter.checkCutoff(cutoff, sampleRate: sampleRate)
        } else if !(cutoff.isFinite && cutoff > 0) {
            throw .invalidArgument(name: "cutoff", value: "\(cutoff) Hz", expected: "a frequency above 0 Hz")
        }
        guard q.isFinite, q > 0, q <= Self.maxQ else {
            throw .invalidArgument(
                name: "filter Q", value: "\(q)", expected: "a resonance above 0 and at most \(Self.maxQ)")
        }
    }

    /// `lowpass 800 Hz q=0.71`, as messages and cues show it.
    public var description: String { "\(kind.rawValue) \(cutoff) Hz q=\(q)" }

    /// Where a glide from or to no filter starts or ends: a low-pass above hearing, a high-pass
    /// below it; `nil` for a band-pass, which has no open setting (it switches at once).
    var opened: CutoffFilter? {
        switch kind {
        case .lowpass: CutoffFilter(.lowpass, cutoff: 22_000, q: q)
        case .highpass: CutoffFilter(.highpass, cutoff: 10, q: q)
        case .bandpass: nil
        }
    }
}

/// A cutoff filter gliding from one setting to another over render-clock frames; `nil` at either end
/// is no filter. The cutoff moves on a logarithmic scale (equal steps per octave), Q linearly.
///
/// A filter coming on or going off also crossfades between the dry and the filtered signal over
/// ``fade`` frames at that end, so switching never steps the signal.
struct CutoffRamp: Equatable {
    var from: CutoffFilter?
    var to: CutoffFilter?
    var start: Int64
    var end: Int64
    /// Frames of the dry-to-filtered crossfade when `from` or `to` is `nil`.
    var fade: Int64 = 0
    /// Whether the cutoff sweeps from or to fully open when `from` or `to` is `nil` (a glide the game
    /// asked for); without, the filter holds its setting and only the crossfade moves.
    var sweeps = true

    /// A ramp that already sits at `filter`.
    static func constant(_ filter: CutoffFilter?) -> CutoffRamp {
        CutoffRamp(from: filter, to: filter, start: 0, end: 0)
    }

    /// The filter at `frame`. Two settings of different kinds do not glide: the target holds from the
    /// start. From or to no filter, a low- or high-pass glides from or to fully open.
    func value(at frame: Int64) -> CutoffFilter? {
        guard frame < end, end > start else { return to }
        guard frame > start else { return from }
        guard sweeps || (from != nil && to != nil) else { return to ?? from }
        guard let a = from ?? to?.opened ?? to, let b = to ?? from?.opened ?? from, a.kind == b.kind else {
            return to
        }
        let progress = Float(Double(frame - start) / Double(end - start))
        let cutoff = a.cutoff * pow(b.cutoff / a.cutoff, progress)
        return CutoffFilter(a.kind, cutoff: cutoff, q: a.q + (b.q - a.q) * progress)
    }

    /// How much of the filtered signal is heard at `frame` (the rest is dry): 1 but while a filter
    /// comes on or goes off.
    /// - Parameter origin: The frame the voice has been heard since; a voice that began after the
    ///   filter came on had no unfiltered sound to fade from, and is filtered from its first sample.
    func wet(at frame: Int64, heardSince origin: Int64) -> Double {
        guard fade > 0, frame < end, end > start else { return 1 }
        if from == nil {
            return origin >= start ? 1 : min(max(Double(frame - start) / Double(fade), 0), 1)
        }
        if to == nil { return min(max(Double(end - frame) / Double(fade), 0), 1) }
        return 1
    }

    func isDone(at frame: Int64) -> Bool { frame >= end }

    /// Whether it filters anything from `frame` on.
    func isOff(from frame: Int64) -> Bool { to == nil && isDone(at: frame) }

    /// A ramp from the setting at `frame` to `target`, starting at `begin` and lasting `frames`, with
    /// a crossfade of `fade` frames if the filter comes on or goes off.
    func retargeted(
        to target: CutoffFilter?, at frame: Int64, begin: Int64, over frames: Int64, fade: Int64, sweeps: Bool
    ) -> CutoffRamp {
        CutoffRamp(
            from: value(at: frame), to: target, start: begin, end: begin + max(frames, 0), fade: fade,
            sweeps: sweeps)
    }
}
