/// The settings of one sfxr sound effect, in sfxr's own slider units, so a parameter set made in sfxr
/// or jsfxr (its `p_*` fields) sounds here as it does there.
///
/// Each value is a slider position: 0...1, or -1...1 for the signed ones (slides, sweeps, the
/// arpeggio's amount and the phaser's offset). ``SynthGenerator`` turns them into samples with sfxr's
/// algorithm. `noiseSeed` is the one addition: sfxr draws its noise from the system's random numbers,
/// this generator from a ``SplitMix64`` with that seed, so a noise effect renders the same samples
/// every time.
public struct SynthParameters: Sendable, Equatable {
    /// The oscillator's shape (sfxr's `wave_type`).
    public enum Wave: Int, Sendable, CaseIterable {
        /// A pulse whose width is ``SynthParameters/duty``.
        case square = 0
        /// A falling ramp (a triangle as ``SynthParameters/duty`` falls below 1).
        case sawtooth = 1
        /// A sine.
        case sine = 2
        /// White noise, held for 1/32 of a period at a time, so its pitch still matters.
        case noise = 3

        /// The name the catalogue and the command line use.
        public var name: String {
            switch self {
            case .square: "square"
            case .sawtooth: "sawtooth"
            case .sine: "sine"
            case .noise: "noise"
            }
        }
    }

    /// The oscillator's shape.
    public var wave: Wave = .square
    /// Envelope attack time (`p_env_attack`): 0 starts at full volume.
    public var attack = 0.0
    /// Envelope sustain time (`p_env_sustain`).
    public var sustain = 0.3
    /// How far above full volume the sustain starts and falls back from (`p_env_punch`).
    public var punch = 0.0
    /// Envelope decay time (`p_env_decay`).
    public var decay = 0.4
    /// Start frequency (`p_base_freq`).
    public var frequency = 0.3
    /// Minimum frequency (`p_freq_limit`): a slide that falls below it ends the sound; 0 for none.
    public var minFrequency = 0.0
    /// Frequency slide (`p_freq_ramp`, signed): negative falls, positive rises.
    public var slide = 0.0
    /// Change of the slide over time (`p_freq_dramp`, signed).
    public var deltaSlide = 0.0
    /// Vibrato depth (`p_vib_strength`).
    public var vibratoDepth = 0.0
    /// Vibrato speed (`p_vib_speed`).
    public var vibratoSpeed = 0.0
    /// Arpeggio change amount (`p_arp_mod`, signed): positive jumps up once, negative down.
    public var arpeggioAmount = 0.0
    /// Arpeggio change speed (`p_arp_speed`): how soon the jump comes; 0 late, 1 never.
    public var arpeggioSpeed = 0.0
    /// Square duty (`p_duty`): 0 is a half-period pulse, 1 the thinnest.
    public var duty = 0.0
    /// Duty sweep (`p_duty_ramp`, signed).
    public var dutySweep = 0.0
    /// Repeat speed (`p_repeat_speed`): restarts the pitch (not the envelope) this often; 0 never.
    public var repeatSpeed = 0.0
    /// Phaser offset (`p_pha_offset`, signed): a comb from a delayed copy.
    public var phaserOffset = 0.0
    /// Phaser sweep (`p_pha_ramp`, signed).
    public var phaserSweep = 0.0
    /// Low-pass cutoff (`p_lpf_freq`): 1 leaves the sound open.
    public var lowPassCutoff = 1.0
    /// Low-pass cutoff sweep (`p_lpf_ramp`, signed).
    public var lowPassSweep = 0.0
    /// Low-pass resonance (`p_lpf_resonance`).
    public var lowPassResonance = 0.0
    /// High-pass cutoff (`p_hpf_freq`): 0 leaves the sound open.
    public var highPassCutoff = 0.0
    /// High-pass cutoff sweep (`p_hpf_ramp`, signed).
    public var highPassSweep = 0.0
    /// Volume (`sound_vol`), 0...1: jsfxr's gain `exp(volume) - 1`. 0.25 as jsfxr's page and its
    /// `sfxr.generate` start with (a gain of 0.28, which leaves a punchy noise room below clipping).
    public var volume = 0.25
    /// Seeds the noise wave's random values; the same seed renders the same samples.
    public var noiseSeed: UInt64 = 0

    /// sfxr's defaults: a 0.3 square tone with a short decay.
    public init() {}

    /// The slider fields in sfxr's order (jsfxr's `params_order` after `wave_type`), with their key and
    /// whether they are signed. The codecs, the mutation and the range check walk this one list.
    static let fields:
        [(key: String, path: WritableKeyPath<SynthParameters, Double> & Sendable, signed: Bool)] = [
            ("p_env_attack", \.attack, false), ("p_env_sustain", \.sustain, false),
            ("p_env_punch", \.punch, false), ("p_env_decay", \.decay, false),
            ("p_base_freq", \.frequency, false), ("p_freq_limit", \.minFrequency, false),
            ("p_freq_ramp", \.slide, true), ("p_freq_dramp", \.deltaSlide, true),
            ("p_vib_strength", \.vibratoDepth, false), ("p_vib_speed", \.vibratoSpeed, false),
            ("p_arp_mod", \.arpeggioAmount, true), ("p_arp_speed", \.arpeggioSpeed, false),
            ("p_duty", \.duty, false), ("p_duty_ramp", \.dutySweep, true),
            ("p_repeat_speed", \.repeatSpeed, false), ("p_pha_offset", \.phaserOffset, true),
            ("p_pha_ramp", \.phaserSweep, true), ("p_lpf_freq", \.lowPassCutoff, false),
            ("p_lpf_ramp", \.lowPassSweep, true), ("p_lpf_resonance", \.lowPassResonance, false),
            ("p_hpf_freq", \.highPassCutoff, false), ("p_hpf_ramp", \.highPassSweep, true),
        ]

    /// The widest a slider may be set: jsfxr's own random sounds reach -1...1.5 on some (a start
    /// frequency of `cube(x) + 0.5`), which sfxr's algorithm takes in its stride.
    static let sliderRange = -2.0...2.0

    /// Checks every value is finite and within range.
    /// - Throws: ``SynthError/invalidParameter(key:value:expected:)`` naming the first bad one.
    public func validate() throws(SynthError) {
        for field in Self.fields {
            let value = self[keyPath: field.path]
            guard value.isFinite, Self.sliderRange.contains(value) else {
                throw .invalidParameter(key: field.key, value: "\(value)", expected: "a number from -2 to 2")
            }
        }
        guard volume.isFinite, (0...1).contains(volume) else {
            throw .invalidParameter(key: "sound_vol", value: "\(volume)", expected: "a number from 0 to 1")
        }
    }

    /// A copy with about half the sliders nudged by up to ±0.05, as sfxr's "mutate" button does; each
    /// stays within its slider's range (0...1, or -1...1 for a signed one). The wave and the volume stay.
    /// - Parameter seed: Picks which sliders move and how far; the same seed gives the same copy.
    /// - Returns: The mutated parameters (with a noise seed drawn from the same sequence).
    public func mutated(seed: UInt64) -> SynthParameters {
        var random = SplitMix64(seed: seed)
        var copy = self
        for field in Self.fields where field.key != "p_freq_limit" && random.unit() < 0.5 {
            let nudged = copy[keyPath: field.path] + random.unit() * 0.1 - 0.05
            let low = field.signed ? -1.0 : 0.0
            copy[keyPath: field.path] = min(max(nudged, low), 1)
        }
        copy.noiseSeed = random.next() >> 11
        return copy
    }
}

/// Why a synthesised sound could not be made.
public enum SynthError: Error, Equatable, CustomStringConvertible {
    /// A parameter outside its range, or of the wrong type.
    case invalidParameter(key: String, value: String, expected: String)
    /// A preset name the generator does not have.
    case unknownPreset(String)
    /// Text that is neither the catalogue's JSON form nor an sfxr parameter string.
    case unreadable(text: String, reason: String)

    /// The message, naming the value.
    public var description: String {
        switch self {
        case .invalidParameter(let key, let value, let expected):
            return "synth parameter \"\(key)\" is \(value); expected \(expected)"
        case .unknownPreset(let name):
            let names = SynthPreset.allCases.map(\.rawValue).joined(separator: ", ")
            return "unknown synth preset \"\(name)\"; the presets are \(names)"
        case .unreadable(let text, let reason):
            let shown = text.count > 60 ? String(text.prefix(60)) + "..." : text
            return "cannot read synth parameters \"\(shown)\": \(reason)"
        }
    }
}
