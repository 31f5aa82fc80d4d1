#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Renders ``SynthParameters`` with sfxr's algorithm: an oscillator run at 8 times 44.1 kHz whose period
/// slides, jumps and wobbles, through sfxr's resonant low-pass and one-pole high-pass, a phaser (a
/// delayed copy added back) and an attack/sustain/decay envelope, each 8 sub-samples averaged into one.
///
/// The output is sfxr's: mono at 44,100 Hz, as long as the envelope (at most about 6.8 s). The engine
/// plays it at its own rate like any 44.1 kHz file, so what sfxr and jsfxr show as a sound's timing
/// (counted in 44.1 kHz samples) and pitch hold here. The arithmetic is jsfxr's, in doubles, so the
/// same parameters and noise seed give the same samples on every machine.
public enum SynthGenerator {
    /// The rate sfxr's parameters are defined at, and the rate of every render.
    public static let sampleRate = 44_100
    /// Sub-samples per output sample.
    static let oversampling = 8

    /// The most frames `parameters` can render: the envelope's length (a frequency cutoff ends sooner).
    /// - Parameter parameters: Checked parameters.
    /// - Returns: A frame count at 44.1 kHz.
    public static func frameBound(_ parameters: SynthParameters) -> Int {
        [parameters.attack, parameters.sustain, parameters.decay].reduce(3) { total, slider in
            total + Int(slider * slider * 100_000)
        }
    }

    /// Renders one sound.
    /// - Parameter parameters: What to render (checked: ``SynthParameters/validate()``).
    /// - Returns: Mono samples at ``sampleRate``, within -1...1.
    /// - Throws: ``SynthError/invalidParameter(key:value:expected:)`` naming a bad value.
    public static func render(_ parameters: SynthParameters) throws(SynthError) -> PCMAudio {
        try parameters.validate()
        var voice = SfxrVoice(parameters)
        return PCMAudio(sampleRate: sampleRate, channels: 1, samples: voice.run())
    }
}

/// The state of one render, named after jsfxr's variables where it helps to read the two side by side.
private struct SfxrVoice {
    let p: SynthParameters
    var random: SplitMix64

    // What a repeat restarts.
    var elapsedSinceRepeat = 0
    var period = 0.0
    var periodMax = 0.0
    var frequencyCutoff = false
    var periodMult = 0.0
    var periodMultSlide = 0.0
    var dutyCycle = 0.0
    var dutyCycleSlide = 0.0
    var arpeggioMultiplier = 0.0
    var arpeggioTime = 0

    // What runs through the whole sound.
    var fltw: Double
    let lowPassOn: Bool
    let fltwDelta: Double
    let fltdmp: Double
    var flthp: Double
    let flthpDelta: Double
    let vibratoSpeed: Double
    let vibratoAmplitude: Double
    let envelopeLength: [Int]
    var flangerOffset: Double
    let flangerOffsetSlide: Double
    let repeatTime: Int
    let gain: Double

    init(_ p: SynthParameters) {
        self.p = p
        random = SplitMix64(seed: p.noiseSeed)
        fltw = cube(p.lowPassCutoff) * 0.1
        lowPassOn = p.lowPassCutoff != 1
        fltwDelta = 1 + p.lowPassSweep * 0.0001
        fltdmp = min(5 / (1 + square(p.lowPassResonance) * 20) * (0.01 + fltw), 0.8)
        flthp = square(p.highPassCutoff) * 0.1
        flthpDelta = 1 + p.highPassSweep * 0.0003
        vibratoSpeed = square(p.vibratoSpeed) * 0.01
        vibratoAmplitude = p.vibratoDepth * 0.5
        envelopeLength = [p.attack, p.sustain, p.decay].map { Int((square($0) * 100_000).rounded(.down)) }
        let offset = square(p.phaserOffset) * 1020
        flangerOffset = p.phaserOffset < 0 ? -offset : offset
        flangerOffsetSlide = p.phaserSweep < 0 ? -square(p.phaserSweep) : square(p.phaserSweep)
        repeatTime = p.repeatSpeed == 0 ? 0 : Int((square(1 - p.repeatSpeed) * 20_000 + 32).rounded(.down))
        gain = exp(p.volume) - 1
        restart()
    }

    /// sfxr's `initForRepeat`: the pitch, its slides, the duty and the arpeggio start over.
    mutating func restart() {
        elapsedSinceRepeat = 0
        period = 100 / (square(p.frequency) + 0.001)
        periodMax = 100 / (square(p.minFrequency) + 0.001)
        frequencyCutoff = p.minFrequency > 0
        periodMult = 1 - cube(p.slide) * 0.01
        periodMultSlide = -cube(p.deltaSlide) * 0.000_001
        dutyCycle = 0.5 - p.duty * 0.5
        dutyCycleSlide = -p.dutySweep * 0.000_05
        arpeggioMultiplier =
            p.arpeggioAmount >= 0 ? 1 - square(p.arpeggioAmount) * 0.9 : 1 + square(p.arpeggioAmount) * 10
        arpeggioTime =
            p.arpeggioSpeed == 1 ? 0 : Int((square(1 - p.arpeggioSpeed) * 20_000 + 32).rounded(.down))
    }

    mutating func run() -> [Float] {
        let oversampling = SynthGenerator.oversampling
        var out: [Float] = []
        out.reserveCapacity(envelopeLength.reduce(0, +) + 3)
        var noise = (0..<32).map { _ in random.bipolar() }
        var flanger = [Double](repeating: 0, count: 1024)
        var (fltp, fltdp, fltphp) = (0.0, 0.0, 0.0)
        var (stage, stageElapsed) = (0, 0)
        var vibratoPhase = 0.0
        var (phase, ipp) = (0, 0)
        var t = 0
        while true {
            defer { t += 1 }
            elapsedSinceRepeat += 1
            if repeatTime != 0 && elapsedSinceRepeat >= repeatTime { restart() }
            // The arpeggio's single jump, counted from the start (a repeat rearms it).
            if arpeggioTime != 0 && t >= arpeggioTime {
                arpeggioTime = 0
                period *= arpeggioMultiplier
            }
            periodMult += periodMultSlide
            period *= periodMult
            if period > periodMax {
                period = periodMax
                if frequencyCutoff { break }
            }
            var rfperiod = period
            if vibratoAmplitude > 0 {
                vibratoPhase += vibratoSpeed
                rfperiod = period * (1 + sin(vibratoPhase) * vibratoAmplitude)
            }
            let iperiod = max(Int(rfperiod.rounded(.down)), oversampling)
            dutyCycle = min(max(dutyCycle + dutyCycleSlide, 0), 0.5)

            stageElapsed += 1
            if stageElapsed > envelopeLength[stage] {
                stageElapsed = 0
                stage += 1
                if stage > 2 { break }
            }
            // A stage of length 0 lasts one sample at its start, which jsfxr writes as 0 (its envelope
            // is 0 / 0 there, NaN, which its conversion to integers makes 0).
            let length = envelopeLength[stage]
            let fraction = length == 0 ? 0 : Double(stageElapsed) / Double(length)
            let envelope =
                if length == 0 {
                    0.0
                } else {
                    switch stage {
                    case 0: fraction
                    case 1: 1 + (1 - fraction) * 2 * p.punch
                    default: 1 - fraction
                    }
                }

            flangerOffset += flangerOffsetSlide
            let iphase = min(abs(Int(flangerOffset.rounded(.down))), 1023)
            if flthpDelta != 0 { flthp = min(max(flthp * flthpDelta, 0.000_01), 0.1) }

            var sample = 0.0
            for _ in 0..<oversampling {
                phase += 1
                if phase >= iperiod {
                    phase %= iperiod
                    if p.wave == .noise { for i in 0..<32 { noise[i] = random.bipolar() } }
                }
                let fp = Double(phase) / Double(iperiod)
                var sub: Double
                switch p.wave {
                case .square: sub = fp < dutyCycle ? 0.5 : -0.5
                case .sawtooth:
                    sub =
                        fp < dutyCycle ? -1 + 2 * fp / dutyCycle : 1 - 2 * (fp - dutyCycle) / (1 - dutyCycle)
                case .sine: sub = sin(fp * 2 * Double.pi)
                case .noise: sub = noise[phase * 32 / iperiod]
                }
                let pp = fltp
                fltw = min(max(fltw * fltwDelta, 0), 0.1)
                if lowPassOn {
                    fltdp += (sub - fltp) * fltw
                    fltdp -= fltdp * fltdmp
                } else {
                    fltp = sub
                    fltdp = 0
                }
                fltp += fltdp
                fltphp += fltp - pp
                fltphp -= fltphp * flthp
                sub = fltphp
                flanger[ipp & 1023] = sub
                sub += flanger[(ipp - iphase + 1024) & 1023]
                ipp = (ipp + 1) & 1023
                sample += sub * envelope
            }
            let value = sample / Double(oversampling) * gain
            out.append(Float(min(max(value, -1), 1)))
        }
        return out
    }
}

private func square(_ x: Double) -> Double { x * x }
private func cube(_ x: Double) -> Double { x * x * x }
