import COpenAL

/// A filter on a voice or a bus: a real cutoff in hertz run by the engine, or one of OpenAL's EFX
/// shelves.
///
/// ``lowpass(cutoff:q:)``, ``highpass(cutoff:q:)`` and ``bandpass(center:q:)`` make a
/// ``CutoffFilter``: a 12 dB-per-octave biquad the engine runs on the samples it feeds OpenAL, so a
/// cutoff at 800 Hz puts a sound behind a wall on any device. A voice it applies to is fed to OpenAL
/// as a short queue of filtered blocks (``AudioEngine/filterLatency``), and a change of cutoff can
/// glide. Voices with no cutoff filter play as before, at no cost.
///
/// The shelves are OpenAL Soft 1.19's EFX filters, fixed in frequency: its low-pass keeps what lies
/// below 5 kHz and scales what lies above by `gainHF`; its high-pass keeps what lies above 250 Hz and
/// scales what lies below by `gainLF`; its band-pass does both. They dull a sound at no cost of
/// latency. When the device has no EFX a shelf is accepted and does nothing.
public enum SoundFilter: Sendable, Equatable, CustomStringConvertible {
    /// EFX shelf: scales what lies above 5 kHz by `gainHF` (0...1) and everything by `gain`.
    case lowpass(gain: Float = 1, gainHF: Float)
    /// EFX shelf: scales what lies below 250 Hz by `gainLF` (0...1) and everything by `gain`.
    case highpass(gain: Float = 1, gainLF: Float)
    /// EFX shelves: both at once.
    case bandpass(gain: Float = 1, gainLF: Float, gainHF: Float)
    /// A real cutoff in hertz, run by the engine.
    case cutoff(CutoffFilter)

    /// The frequency OpenAL Soft's low-pass shelf sits at.
    public static let lowpassShelf: Float = 5_000
    /// The frequency OpenAL Soft's high-pass shelf sits at.
    public static let highpassShelf: Float = 250

    /// A low-pass with a real cutoff: what lies above `cutoff` falls by 12 dB per octave.
    /// - Parameters:
    ///   - cutoff: Hertz, above 0 and at most half the engine's sample rate.
    ///   - q: The resonance, above 0; ``CutoffFilter/butterworthQ`` (flat) by default.
    /// - Returns: The filter.
    public static func lowpass(cutoff: Float, q: Float = CutoffFilter.butterworthQ) -> SoundFilter {
        .cutoff(CutoffFilter(.lowpass, cutoff: cutoff, q: q))
    }

    /// A high-pass with a real cutoff: what lies below `cutoff` falls by 12 dB per octave.
    /// - Parameters:
    ///   - cutoff: Hertz, above 0 and at most half the engine's sample rate.
    ///   - q: The resonance, above 0; ``CutoffFilter/butterworthQ`` (flat) by default.
    /// - Returns: The filter.
    public static func highpass(cutoff: Float, q: Float = CutoffFilter.butterworthQ) -> SoundFilter {
        .cutoff(CutoffFilter(.highpass, cutoff: cutoff, q: q))
    }

    /// A band-pass around `center`, 0 dB there, narrower as `q` grows (a radio voice: 1500 Hz, Q 2).
    /// - Parameters:
    ///   - center: Hertz, above 0 and at most half the engine's sample rate.
    ///   - q: Above 0: the centre frequency over the band's width.
    /// - Returns: The filter.
    public static func bandpass(center: Float, q: Float = CutoffFilter.butterworthQ) -> SoundFilter {
        .cutoff(CutoffFilter(.bandpass, cutoff: center, q: q))
    }

    /// The cutoff filter, when this is one.
    public var cutoffFilter: CutoffFilter? {
        if case .cutoff(let filter) = self { return filter }
        return nil
    }

    /// The EFX shelf, when this is one.
    var shelf: SoundFilter? { cutoffFilter == nil ? self : nil }

    /// Checks a cutoff given in hertz, e.g. from a cue.
    /// - Parameters:
    ///   - cutoff: Hertz.
    ///   - sampleRate: The engine's rate; the cutoff must be at most half of it.
    /// - Throws: ``AudioEngineError/invalidArgument(name:value:expected:)`` naming the cutoff.
    public static func checkCutoff(_ cutoff: Float, sampleRate: Int) throws(AudioEngineError) {
        let nyquist = Float(sampleRate) / 2
        guard cutoff.isFinite, cutoff > 0, cutoff <= nyquist else {
            throw .invalidArgument(
                name: "cutoff", value: "\(cutoff) Hz",
                expected: "a frequency above 0 and at most \(nyquist) Hz")
        }
    }

    /// Throws unless every gain is a finite number in 0...1, or for a cutoff filter, unless its
    /// cutoff and Q are numbers above 0 (and the cutoff at most half `sampleRate`, when given).
    /// - Parameter sampleRate: The engine's rate, to check a cutoff against.
    /// - Throws: ``AudioEngineError/invalidArgument(name:value:expected:)`` naming the value.
    public func check(sampleRate: Int? = nil) throws(AudioEngineError) {
        if let filter = cutoffFilter {
            try filter.check(sampleRate: sampleRate)
            return
        }
        let (gain, lf, hf) = gains
        for (name, value) in [("filter gain", gain), ("filter gainLF", lf), ("filter gainHF", hf)]
        where !(value.isFinite && (0...1).contains(value)) {
            throw .invalidArgument(name: name, value: "\(value)", expected: "a gain in 0...1")
        }
    }

    /// The overall, low-shelf and high-shelf gains (1 where the kind has no such shelf).
    var gains: (gain: Float, lf: Float, hf: Float) {
        switch self {
        case .lowpass(let gain, let hf): (gain, 1, hf)
        case .highpass(let gain, let lf): (gain, lf, 1)
        case .bandpass(let gain, let lf, let hf): (gain, lf, hf)
        case .cutoff: (1, 1, 1)
        }
    }

    /// The two shelves in series, as one EFX filter: gains multiply, the kind covers both shelves.
    func combined(with other: SoundFilter?) -> SoundFilter {
        guard let other else { return self }
        let (a, b) = (gains, other.gains)
        let (gain, lf, hf) = (a.gain * b.gain, a.lf * b.lf, a.hf * b.hf)
        switch (lf < 1, hf < 1) {
        case (true, true): return .bandpass(gain: gain, gainLF: lf, gainHF: hf)
        case (true, false): return .highpass(gain: gain, gainLF: lf)
        default: return .lowpass(gain: gain, gainHF: hf)
        }
    }

    /// `lowpass gainHF=0.1`, as messages and cues show it.
    public var description: String {
        switch self {
        case .lowpass(let gain, let hf): "lowpass gain=\(gain) gainHF=\(hf)"
        case .highpass(let gain, let lf): "highpass gain=\(gain) gainLF=\(lf)"
        case .bandpass(let gain, let lf, let hf): "bandpass gain=\(gain) gainLF=\(lf) gainHF=\(hf)"
        case .cutoff(let filter): filter.description
        }
    }
}

/// The named reverbs of OpenAL's EFX preset list (`efx-presets.h`).
public enum ReverbPreset: String, Sendable, CaseIterable {
    // The order is efx-presets.h's, which the C shim's table follows.
    case generic, paddedCell, room, bathroom, livingRoom, stoneRoom, auditorium, concertHall, cave
    case arena, hangar, carpetedHallway, hallway, stoneCorridor, alley, forest, city, mountains
    case quarry, plain, parkingLot, sewerPipe, underwater, drugged, dizzy, psychotic

    /// The preset named `name`, ignoring case, dashes and underscores (`concert-hall`, `CAVE`);
    /// `hall` is the concert hall.
    /// - Parameter name: A preset's name.
    /// - Returns: The preset, or `nil` for an unknown name.
    public static func named(_ name: String) -> ReverbPreset? {
        let key = name.lowercased().filter { $0 != "-" && $0 != "_" }
        if key == "hall" { return .concertHall }
        return allCases.first { $0.rawValue.lowercased() == key }
    }

    /// The preset's parameters as the EFX list gives them.
    public var parameters: Reverb {
        var properties = EFXEAXREVERBPROPERTIES()
        let index = Int32(Self.allCases.firstIndex(of: self) ?? 0)
        _ = soundstation_reverb_preset(index, &properties)
        return Reverb(properties)
    }
}

/// A reverb's parameters: EFX's standard reverb (`AL_EFFECT_REVERB`), in its units and ranges.
///
/// Start from a preset (``ReverbPreset/parameters``) and change what you like, e.g. a longer
/// ``decayTime``. ``wet`` sets how loud the reverb returns; it is not part of the preset.
public struct Reverb: Sendable, Equatable {
    /// 0...1: modal density of the late reverb.
    public var density: Float
    /// 0...1: echo density.
    public var diffusion: Float
    /// 0...1: the reverb's overall level.
    public var gain: Float
    /// 0...1: its level at high frequencies.
    public var gainHF: Float
    /// 0.1...20 s: how long the late reverb takes to fall by 60 dB.
    public var decayTime: Float
    /// 0.1...2: high-frequency decay time relative to ``decayTime``.
    public var decayHFRatio: Float
    /// 0...3.16: level of the early reflections.
    public var reflectionsGain: Float
    /// 0...0.3 s: delay of the early reflections.
    public var reflectionsDelay: Float
    /// 0...10: level of the late reverb.
    public var lateReverbGain: Float
    /// 0...0.1 s: delay of the late reverb after the reflections.
    public var lateReverbDelay: Float
    /// 0.892...1: high-frequency air absorption per metre.
    public var airAbsorptionGainHF: Float
    /// 0...10: extra distance rolloff of the reverb.
    public var roomRolloffFactor: Float
    /// Whether high-frequency decay is limited by air absorption.
    public var decayHFLimit: Bool
    /// 0...1: the level the reverb returns at (the effect slot's gain).
    public var wet: Float = 1

    init(_ p: EFXEAXREVERBPROPERTIES) {
        density = p.flDensity
        diffusion = p.flDiffusion
        gain = p.flGain
        gainHF = p.flGainHF
        decayTime = p.flDecayTime
        decayHFRatio = p.flDecayHFRatio
        reflectionsGain = p.flReflectionsGain
        reflectionsDelay = p.flReflectionsDelay
        lateReverbGain = p.flLateReverbGain
        lateReverbDelay = p.flLateReverbDelay
        airAbsorptionGainHF = p.flAirAbsorptionGainHF
        roomRolloffFactor = p.flRoomRolloffFactor
        decayHFLimit = p.iDecayHFLimit != 0
    }

    /// Throws for a parameter outside EFX's range.
    /// - Throws: ``AudioEngineError/invalidArgument(name:value:expected:)`` naming it.
    public func check() throws(AudioEngineError) {
        let ranges: [(String, Float, ClosedRange<Float>)] = [
            ("reverb density", density, 0...1), ("reverb diffusion", diffusion, 0...1),
            ("reverb gain", gain, 0...1), ("reverb gainHF", gainHF, 0...1),
            ("reverb decayTime", decayTime, 0.1...20), ("reverb decayHFRatio", decayHFRatio, 0.1...2),
            ("reverb reflectionsGain", reflectionsGain, 0...3.16),
            ("reverb reflectionsDelay", reflectionsDelay, 0...0.3),
            ("reverb lateReverbGain", lateReverbGain, 0...10),
            ("reverb lateReverbDelay", lateReverbDelay, 0...0.1),
            ("reverb airAbsorptionGainHF", airAbsorptionGainHF, 0.892...1),
            ("reverb roomRolloffFactor", roomRolloffFactor, 0...10), ("reverb wet", wet, 0...1),
        ]
        for (name, value, range) in ranges where !(value.isFinite && range.contains(value)) {
            throw .invalidArgument(name: name, value: "\(value)", expected: "a number in \(range)")
        }
    }
}
