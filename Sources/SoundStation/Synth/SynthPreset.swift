/// sfxr's sound families: each draws a parameter set typical of a game event from a seed.
///
/// The draws follow sfxr's (and jsfxr's) preset buttons, with a ``SplitMix64`` instead of the system's
/// random numbers, so a preset and a seed name one sound for good. One change: sfxr gives a coin its
/// second, higher step only half the time, sometimes after the sound has ended or only 4% higher; here
/// a coin always has it, at least 9% higher and before the decay ends (a coin without it is a blip);
/// and an explosion always decays for at least 0.1 s (sfxr's may stop dead after its sustain).
public enum SynthPreset: String, Sendable, CaseIterable {
    /// A pickup or coin: a bright tone that jumps up once.
    case coin
    /// A laser or shot: a falling tone.
    case laser
    /// An explosion: noise that decays.
    case explosion
    /// A power-up: a rising tone, often repeated.
    case powerup
    /// A hit or hurt: a short falling tone or noise.
    case hit
    /// A jump: a square wave that rises.
    case jump
    /// A blip or menu select: a short tone.
    case blip
    /// Any sound: every slider drawn at random.
    case random

    /// sfxr's and jsfxr's names for the same buttons, accepted as well.
    static let aliases: [String: SynthPreset] = [
        "pickup": .coin, "pickupCoin": .coin, "shoot": .laser, "laserShoot": .laser, "powerUp": .powerup,
        "hurt": .hit, "hitHurt": .hit, "select": .blip, "blipSelect": .blip,
    ]

    /// The preset called `name` (its own name or sfxr's).
    /// - Parameter name: `coin`, `laser`, ... or `pickup`, `shoot`, `hurt`, `select`, ...
    /// - Throws: ``SynthError/unknownPreset(_:)``.
    public init(named name: String) throws(SynthError) {
        guard let preset = SynthPreset(rawValue: name) ?? Self.aliases[name] else {
            throw .unknownPreset(name)
        }
        self = preset
    }

    /// The parameters this preset draws from `seed`.
    /// - Parameter seed: Any value; equal seeds give equal parameters.
    /// - Returns: The parameters, whose noise seed is drawn from the same sequence.
    public func parameters(seed: UInt64) -> SynthParameters {
        var draw = PresetDraw(seed: seed)
        var p = SynthParameters()
        switch self {
        case .coin: draw.coin(&p)
        case .laser: draw.laser(&p)
        case .explosion: draw.explosion(&p)
        case .powerup: draw.powerup(&p)
        case .hit: draw.hit(&p)
        case .jump: draw.jump(&p)
        case .blip: draw.blip(&p)
        case .random: draw.random(&p)
        }
        p.noiseSeed = draw.random.next() >> 11  // 53 bits: exact as a JSON number in every language
        return p
    }
}

/// sfxr's three helpers over a seeded sequence: `frnd(range)`, `rnd(max)` and `rndr(from, to)`.
private struct PresetDraw {
    var random: SplitMix64

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    /// A value in 0..<range.
    mutating func frnd(_ range: Double) -> Double { random.unit() * range }
    /// A whole number in 0...max.
    mutating func rnd(_ max: Int) -> Int { Int(random.unit() * Double(max + 1)) }
    /// True half the time (sfxr's `rnd(1)`).
    mutating func coinFlip() -> Bool { rnd(1) == 1 }

    mutating func coin(_ p: inout SynthParameters) {
        p.frequency = 0.4 + frnd(0.5)
        p.attack = 0
        p.sustain = frnd(0.1)
        p.decay = 0.25 + frnd(0.25)
        p.punch = 0.3 + frnd(0.3)
        p.arpeggioSpeed = 0.5 + frnd(0.2)
        p.arpeggioAmount = 0.3 + frnd(0.3)
    }

    mutating func laser(_ p: inout SynthParameters) {
        p.wave = SynthParameters.Wave(rawValue: rnd(2)) ?? .square
        if p.wave == .sine && coinFlip() { p.wave = SynthParameters.Wave(rawValue: rnd(1)) ?? .square }
        if rnd(2) == 0 {
            p.frequency = 0.3 + frnd(0.6)
            p.minFrequency = frnd(0.1)
            p.slide = -0.35 - frnd(0.3)
        } else {
            p.frequency = 0.5 + frnd(0.5)
            p.minFrequency = max(p.frequency - 0.2 - frnd(0.6), 0.2)
            p.slide = -0.15 - frnd(0.2)
        }
        if p.wave == .sawtooth { p.duty = 1 }
        if coinFlip() {
            p.duty = frnd(0.5)
            p.dutySweep = frnd(0.2)
        } else {
            p.duty = 0.4 + frnd(0.5)
            p.dutySweep = -frnd(0.7)
        }
        p.attack = 0
        p.sustain = 0.1 + frnd(0.2)
        p.decay = frnd(0.4)
        if coinFlip() { p.punch = frnd(0.3) }
        if rnd(2) == 0 {
            p.phaserOffset = frnd(0.2)
            p.phaserSweep = -frnd(0.2)
        }
        p.highPassCutoff = frnd(0.3)
    }

    mutating func explosion(_ p: inout SynthParameters) {
        p.wave = .noise
        if coinFlip() {
            p.frequency = square(0.1 + frnd(0.4))
            p.slide = -0.1 + frnd(0.4)
        } else {
            p.frequency = square(0.2 + frnd(0.7))
            p.slide = -0.2 - frnd(0.2)
        }
        if rnd(4) == 0 { p.slide = 0 }
        if rnd(2) == 0 { p.repeatSpeed = 0.3 + frnd(0.5) }
        p.attack = 0
        p.sustain = 0.1 + frnd(0.3)
        p.decay = 0.3 + frnd(0.3)
        if coinFlip() {
            p.phaserOffset = -0.3 + frnd(0.9)
            p.phaserSweep = -frnd(0.3)
        }
        p.punch = 0.2 + frnd(0.6)
        if coinFlip() {
            p.vibratoDepth = frnd(0.7)
            p.vibratoSpeed = frnd(0.6)
        }
        if rnd(2) == 0 {
            p.arpeggioSpeed = 0.6 + frnd(0.3)
            p.arpeggioAmount = 0.8 - frnd(1.6)
        }
    }

    mutating func powerup(_ p: inout SynthParameters) {
        if coinFlip() {
            p.wave = .sawtooth
            p.duty = 1
        } else {
            p.duty = frnd(0.6)
        }
        p.frequency = 0.2 + frnd(0.3)
        if coinFlip() {
            p.slide = 0.1 + frnd(0.4)
            p.repeatSpeed = 0.4 + frnd(0.4)
        } else {
            p.slide = 0.05 + frnd(0.2)
            if coinFlip() {
                p.vibratoDepth = frnd(0.7)
                p.vibratoSpeed = frnd(0.6)
            }
        }
        p.attack = 0
        p.sustain = frnd(0.4)
        p.decay = 0.1 + frnd(0.4)
    }

    mutating func hit(_ p: inout SynthParameters) {
        p.wave = SynthParameters.Wave(rawValue: rnd(2)) ?? .square
        if p.wave == .sine { p.wave = .noise }
        if p.wave == .square { p.duty = frnd(0.6) }
        if p.wave == .sawtooth { p.duty = 1 }
        p.frequency = 0.2 + frnd(0.6)
        p.slide = -0.3 - frnd(0.4)
        p.attack = 0
        p.sustain = frnd(0.1)
        p.decay = 0.1 + frnd(0.2)
        if coinFlip() { p.highPassCutoff = frnd(0.3) }
    }

    mutating func jump(_ p: inout SynthParameters) {
        p.wave = .square
        p.duty = frnd(0.6)
        p.frequency = 0.3 + frnd(0.3)
        p.slide = 0.1 + frnd(0.2)
        p.attack = 0
        p.sustain = 0.1 + frnd(0.3)
        p.decay = 0.1 + frnd(0.2)
        if coinFlip() { p.highPassCutoff = frnd(0.3) }
        if coinFlip() { p.lowPassCutoff = 1 - frnd(0.6) }
    }

    mutating func blip(_ p: inout SynthParameters) {
        p.wave = SynthParameters.Wave(rawValue: rnd(1)) ?? .square
        p.duty = p.wave == .square ? frnd(0.6) : 1
        p.frequency = 0.2 + frnd(0.4)
        p.attack = 0
        p.sustain = 0.1 + frnd(0.1)
        p.decay = frnd(0.2)
        p.highPassCutoff = 0.1
    }

    /// sfxr's "randomize": every slider drawn, with its guards against silent or endless sounds.
    mutating func random(_ p: inout SynthParameters) {
        p.wave = SynthParameters.Wave(rawValue: rnd(3)) ?? .square
        p.frequency = coinFlip() ? cube(frnd(2) - 1) + 0.5 : square(frnd(1))
        p.minFrequency = 0
        p.slide = pow5(frnd(2) - 1)
        if p.frequency > 0.7 && p.slide > 0.2 { p.slide = -p.slide }
        if p.frequency < 0.2 && p.slide < -0.05 { p.slide = -p.slide }
        p.deltaSlide = cube(frnd(2) - 1)
        p.duty = frnd(2) - 1
        p.dutySweep = cube(frnd(2) - 1)
        p.vibratoDepth = cube(frnd(2) - 1)
        p.vibratoSpeed = frnd(2) - 1
        p.attack = cube(frnd(2) - 1)
        p.sustain = square(frnd(2) - 1)
        p.decay = frnd(2) - 1
        p.punch = square(frnd(0.8))
        if p.attack + p.sustain + p.decay < 0.2 {
            p.sustain += 0.2 + frnd(0.3)
            p.decay += 0.2 + frnd(0.3)
        }
        p.lowPassResonance = frnd(2) - 1
        p.lowPassCutoff = 1 - cube(frnd(1))
        p.lowPassSweep = cube(frnd(2) - 1)
        if p.lowPassCutoff < 0.1 && p.lowPassSweep < -0.05 { p.lowPassSweep = -p.lowPassSweep }
        p.highPassCutoff = pow5(frnd(1))
        p.highPassSweep = pow5(frnd(2) - 1)
        p.phaserOffset = cube(frnd(2) - 1)
        p.phaserSweep = cube(frnd(2) - 1)
        p.repeatSpeed = frnd(2) - 1
        p.arpeggioSpeed = frnd(2) - 1
        p.arpeggioAmount = frnd(2) - 1
    }
}

private func square(_ x: Double) -> Double { x * x }
private func cube(_ x: Double) -> Double { x * x * x }
private func pow5(_ x: Double) -> Double { x * x * x * x * x }
