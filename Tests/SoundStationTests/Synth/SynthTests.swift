import Foundation
import SoundStationTesting
import Testing

@testable import SoundStation

/// The sfxr generator: its presets' shapes in a render, its determinism, mutation and text forms.
@Suite struct SynthTests {
    /// Renders `preset` with `seed`.
    func render(_ preset: SynthPreset, seed: UInt64) throws -> (SynthParameters, PCMAudio) {
        let parameters = preset.parameters(seed: seed)
        return (parameters, try SynthGenerator.render(parameters))
    }

    /// The zero-crossing pitch of `frames`, in Hz.
    func pitch(_ audio: PCMAudio, _ frames: Range<Int>) -> Double {
        AudioAnalysis.zeroCrossingFrequency(audio, frames: frames)
    }

    /// The frames between successive zero crossings (either way): half a period each for a tone.
    func halfPeriods(_ audio: PCMAudio) -> [Double] {
        var crossings: [Int] = []
        for frame in 1..<audio.frameCount where (audio.samples[frame - 1] <= 0) != (audio.samples[frame] <= 0)
        {
            crossings.append(frame)
        }
        return zip(crossings.dropFirst(), crossings).map { Double($0 - $1) }
    }

    /// Spectral flatness (the power spectrum's geometric mean over its arithmetic mean: about 0.56
    /// for white noise's periodogram, near 0 for a tone) of the first 8192 frames, over the bins from
    /// 40 Hz to `top` Hz, by a plain DFT (8192 frames: 5.4 Hz bins, which resolve a low tone's lines).
    func flatness(_ audio: PCMAudio, upTo top: Double) -> Double {
        let n = 8192
        let cosines = (0..<n).map { cos(2 * Double.pi * Double($0) / Double(n)) }
        let sines = (0..<n).map { sin(2 * Double.pi * Double($0) / Double(n)) }
        let frames = (0..<n).map { $0 < audio.frameCount ? Double(audio.samples[$0]) : 0 }
        let binWidth = Double(audio.sampleRate) / Double(n)
        let bins = Int((40 / binWidth).rounded(.up))...Int(top / binWidth)
        var (logSum, sum) = (0.0, 0.0)
        for bin in bins {
            var (re, im) = (0.0, 0.0)
            for (index, value) in frames.enumerated() {
                let turn = bin * index % n
                re += value * cosines[turn]
                im -= value * sines[turn]
            }
            let power = re * re + im * im + 1e-30
            logSum += log(power)
            sum += power
        }
        let count = Double(bins.count)
        return exp(logSum / count) / (sum / count)
    }

    @Test(arguments: 1...6 as ClosedRange<UInt64>)
    func coinStepsUpOnce(seed: UInt64) throws {
        let (parameters, audio) = try render(.coin, seed: seed)
        // sfxr's arpeggio time, in 44.1 kHz samples: the step comes there.
        let step = Int((1 - parameters.arpeggioSpeed) * (1 - parameters.arpeggioSpeed) * 20_000 + 32)
        let window = min(step - 64, 1500)
        #expect(audio.frameCount > step + window + 64, "the coin ends before its second step")
        let before = pitch(audio, (step - window)..<step)
        let after = pitch(audio, (step + 64)..<(step + 64 + window))
        let expected = 1 / (1 - parameters.arpeggioAmount * parameters.arpeggioAmount * 0.9)
        #expect(after / before > 1.06, "coin \(seed): \(before) Hz then \(after) Hz")
        #expect(
            abs(after / before - expected) < 0.06 * expected,
            "coin \(seed): ratio \(after / before), sfxr's \(expected)")
        // Steady on each side of the step: the first and second halves of the first step agree.
        let half = window / 2
        let early = pitch(audio, (step - window)..<(step - half))
        #expect(abs(early - before) < 0.08 * before)
    }

    @Test(arguments: 1...6 as ClosedRange<UInt64>)
    func laserFalls(seed: UInt64) throws {
        let (_, audio) = try render(.laser, seed: seed)
        // Half-period by half-period: those of the last third are longer than those of the first (a
        // laser may last only a few periods, so no fixed window would hold enough of them).
        let periods = halfPeriods(audio)
        #expect(periods.count >= 4, "laser \(seed): \(periods.count) half-periods")
        let third = periods.count / 3
        let first = periods.prefix(third).reduce(0, +) / Double(third)
        let last = periods.suffix(third).reduce(0, +) / Double(third)
        #expect(last > first * 1.15, "laser \(seed): periods of \(first) then \(last) frames")
    }

    @Test(arguments: 1...6 as ClosedRange<UInt64>)
    func explosionIsDecayingNoise(seed: UInt64) throws {
        let (parameters, audio) = try render(.explosion, seed: seed)
        #expect(parameters.wave == .noise)
        #expect(audio.frameCount > 8192)
        let envelope = AudioAnalysis.envelope(audio, window: 0.02)
        let loudest = envelope.indices.max { envelope[$0] < envelope[$1] }!
        #expect(loudest < envelope.count / 2, "explosion \(seed) peaks late")
        let tail = envelope.suffix(envelope.count / 5)
        #expect(tail.max()! < envelope[loudest] * 0.5, "explosion \(seed) does not decay")
        #expect(envelope.last! < envelope[loudest] * 0.2, "explosion \(seed) does not end quietly")
        // Noise: flat up to half the rate its values change at (32 a period of sfxr's frequency, which
        // the start frequency gives), where a tone is not: the same explosion with a square wave.
        let start = 8 * 44_100 / (100 / (parameters.frequency * parameters.frequency + 0.001))
        let top = min(16 * start, 8_000)
        let noise = flatness(audio, upTo: top)
        var square = parameters
        square.wave = .square
        let tonal = flatness(try SynthGenerator.render(square), upTo: top)
        #expect(noise > 0.3, "explosion \(seed): flatness \(noise) below \(top) Hz")
        #expect(noise > tonal * 2, "explosion \(seed): flatness \(noise), as a square wave \(tonal)")
    }

    @Test func sameSeedSameSamplesOtherSeedOtherSamples() throws {
        for preset in SynthPreset.allCases {
            let (_, a) = try render(preset, seed: 42)
            let (_, b) = try render(preset, seed: 42)
            let (_, c) = try render(preset, seed: 43)
            #expect(a == b, "\(preset) renders differently for one seed")
            #expect(a != c, "\(preset) renders the same for two seeds")
            #expect(AudioAnalysis.peak(a) > 0.01, "\(preset) is silent")
        }
    }

    @Test func mutateChangesALittle() throws {
        let base = SynthPreset.laser.parameters(seed: 5)
        let mutated = base.mutated(seed: 1)
        #expect(mutated != base)
        #expect(mutated == base.mutated(seed: 1))
        var moved = 0
        for field in SynthParameters.fields {
            let delta = abs(mutated[keyPath: field.path] - base[keyPath: field.path])
            #expect(delta <= 0.05 + 1e-12, "\(field.key) moved \(delta)")
            if delta > 0 { moved += 1 }
        }
        #expect(moved >= 3 && moved <= 19)
        // Still a laser: it falls.
        let audio = try SynthGenerator.render(mutated)
        let window = audio.frameCount / 6
        #expect(pitch(audio, (audio.frameCount - window)..<audio.frameCount) < pitch(audio, 0..<window))
    }

    @Test func jsfxrShareStringRoundTrips() throws {
        // The sliders jsfxr's "pickupCoin" gives, as float32 values, and the string jsfxr makes of them
        // (computed by hand from its format: one wave byte, 22 little-endian floats, base58).
        var parameters = SynthParameters()
        parameters.frequency = 0.5
        parameters.sustain = 0.0625
        parameters.decay = 0.25
        parameters.punch = 0.5
        parameters.arpeggioSpeed = 0.625
        parameters.arpeggioAmount = 0.375
        let text = SynthCodec.base58(parameters)
        let read = try SynthSound(parsing: text).parameters
        #expect(read == parameters)
        #expect(try SynthSound(parsing: "#" + text).parameters == parameters)
        #expect(try SynthSound(parsing: "https://sfxr.me/#" + text).parameters == parameters)
        #expect(SynthCodec.base58(read) == text)
        // A square wave's leading zero byte is jsfxr's leading "1".
        #expect(text.hasPrefix("1"))
        #expect(SynthCodec.decode(text)?.count == 89)
        // Any preset: what a string says reads back to the same string.
        for preset in SynthPreset.allCases {
            let string = SynthSound.preset(preset, seed: 9).base58
            #expect(try SynthSound(parsing: string).base58 == string)
        }
    }

    @Test func settingsStringAndJSONRead() throws {
        let settings = "0,,0.0625,0.5,0.25,0.5,,,,,,0.375,0.625,,,,,,1,,,,,0.5"
        let parameters = try SynthSound(parsing: settings).parameters
        #expect(
            parameters.frequency == 0.5 && parameters.arpeggioSpeed == 0.625 && parameters.lowPassCutoff == 1)
        let sound = SynthSound.preset(.explosion, seed: 7, mutations: 2, variation: 1.5)
        let again = try SynthSound(parsing: sound.json)
        #expect(again == sound)
        #expect(try SynthGenerator.render(again.parameters) == SynthGenerator.render(sound.parameters))
        let short = try SynthSound(
            parsing: #"{"preset": "explosion", "seed": 7, "mutate": 2, "variation": 1.5}"#)
        #expect(short == sound)
        // jsfxr's own JSON reads as is.
        let jsfxr =
            #"{"oldParams": true, "wave_type": 1, "p_env_attack": 0, "p_env_sustain": 0.3, "p_base_freq": 0.4, "sound_vol": 0.25, "sample_rate": 44100, "sample_size": 8}"#
        #expect(try SynthSound(parsing: jsfxr).parameters.wave == .sawtooth)
    }

    @Test func badParametersAreNamed() {
        func message(_ text: String) -> String {
            do {
                _ = try SynthSound(parsing: text)
                return ""
            } catch { return error.description }
        }
        #expect(message(#"{"preset": "kazoo"}"#).contains("kazoo"))
        #expect(message(#"{"p_base_freq": 7}"#).contains("p_base_freq"))
        #expect(message(#"{"preset": "coin", "volumn": 1}"#).contains("volumn"))
        #expect(message(#"{"variation": 40}"#).contains("variation"))
        #expect(message("0,1,2").contains("3 values"))
        #expect(message("0OIl").contains("base58"))
        #expect(message("1,,,,,,,,,,,,,,,,,,,,,,,nan").contains("nan"))
    }

    @Test func catalogueEntryLoadsAndVariesPerTrigger() async throws {
        let assets = try TestAssets()  // a temporary folder, removed at the end
        let root = assets.root
        let json = """
            {"sounds": [
              {"name": "coin", "kind": "effect", "synth": {"preset": "coin", "seed": 7}},
              {"name": "zap", "kind": "effect", "synth": {"preset": "laser", "seed": 3, "variation": 2}}
            ]}
            """
        let catalogue = try Catalogue(json: Array(json.utf8), root: root)
        #expect(catalogue["coin"]?.synth == .preset(.coin, seed: 7))
        // No file to watch for a synthesised sound: only catalogue.json's folder (not the working one).
        #expect(
            SoundBank(engine: try AudioEngine(output: .silent), catalogue: catalogue, pcmCache: nil)
                .watchedFolders() == [catalogue.root])
        let engine = try AudioEngine(output: .offline(sampleRate: 48_000, channels: 2))
        let system = SoundSystem(engine: engine, catalogue: catalogue, pcmCache: nil)
        try await system.bank.preload().throwIfFailed()
        // The coin at 48 kHz: its length is sfxr's at 44.1 kHz, resampled.
        let coin = try SynthGenerator.render(SynthPreset.coin.parameters(seed: 7))
        _ = try system.effects.play(try system.bank.id(of: "coin"))
        let mix = try engine.render(frames: 48_000)
        let onset = try #require(AudioAnalysis.onset(mix))
        let expectedEnd = onset + coin.frameCount * 48_000 / 44_100
        #expect(AudioAnalysis.rms(mix, frames: onset..<(onset + 2000)) > 0.01)
        #expect(AudioAnalysis.peak(mix, frames: (expectedEnd + 200)..<(expectedEnd + 2000)) < 1e-4)
        // Ten lasers by id: each trigger's pitch differs, so their lengths differ.
        let zap = try system.bank.id(of: "zap")
        var lengths: Set<Int> = []
        for _ in 0..<5 {
            _ = engine.triggerPort.play(zap)
            let played = try engine.render(frames: 48_000)
            let start = try #require(AudioAnalysis.onset(played))
            var end = played.frameCount - 1
            while end > start && abs(played.samples[end * 2]) < 1e-4 { end -= 1 }
            lengths.insert(end - start)
        }
        #expect(lengths.count >= 4, "lengths \(lengths)")
        #expect(throws: CatalogueError.self) {
            _ = try Catalogue(
                json: Array(
                    #"{"sounds": [{"name": "x", "kind": "effect", "path": "a.wav", "synth": {"preset": "coin"}}]}"#
                        .utf8),
                root: root)
        }
    }

    @Test func runtimeSynthGivesAnId() async throws {
        let assets = try TestAssets()  // a temporary folder, removed at the end
        let root = assets.root
        let engine = try AudioEngine(output: .offline(sampleRate: 48_000, channels: 2))
        let system = SoundSystem(
            engine: engine, catalogue: try Catalogue(json: Array(#"{"sounds": []}"#.utf8), root: root),
            pcmCache: nil)
        let id = try system.synth("laser", .preset(.laser, seed: 3))
        #expect(try system.bank.id(of: "laser") == id)
        #expect(throws: SoundLoadError.self) { try system.synth("laser", .preset(.coin, seed: 1)) }
        var bad = SynthParameters()
        bad.frequency = .nan
        #expect(throws: SoundLoadError.self) { try system.synth("nan", SynthSound(bad)) }
        #expect(system.catalogue["nan"] == nil)
        _ = try system.effects.play(id)
        let mix = try engine.render(frames: 24_000)
        #expect(AudioAnalysis.rms(mix) > 0.01)
    }
}
