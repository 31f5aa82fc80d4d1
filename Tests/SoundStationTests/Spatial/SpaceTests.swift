import Foundation
import SoundStationTesting
import Testing

@testable import SoundStation

/// Positions, distance models, filters and reverb, measured on offline renders.
@Suite struct SpaceTests {
    /// The README's pan law for a mono sound: OpenAL Soft's stereo panner at `pan * 90°`.
    static func panGains(_ pan: Double) -> (left: Double, right: Double) {
        let angle = pan * .pi / 2
        return (0.5 * (1 - sin(angle)) + 0.0957 * cos(angle), 0.5 * (1 + sin(angle)) + 0.0957 * cos(angle))
    }

    static func engine() throws -> AudioEngine {
        try AudioEngine(output: .offline(sampleRate: 48_000, channels: 2))
    }

    /// Energy at `frequency` (a Goertzel bin) on `channel` over `frames`.
    static func energy(_ audio: PCMAudio, at frequency: Double, channel: Int, frames: Range<Int>) -> Double {
        let k = 2 * cos(2 * .pi * frequency / Double(audio.sampleRate))
        var (s1, s2) = (0.0, 0.0)
        for frame in frames {
            let s = Double(audio.samples[frame * audio.channels + channel]) + k * s1 - s2
            (s2, s1) = (s1, s)
        }
        return s1 * s1 + s2 * s2 - k * s1 * s2
    }

    @Test(arguments: [-0.875, -0.75, -0.5, -0.25, 0, 0.25, 0.5, 0.75, 0.875])
    func monoPanFollowsTheStatedLaw(pan: Double) throws {
        let engine = try Self.engine()
        let source = Signals.sine(frequency: 440, seconds: 0.5)
        try engine.play(try engine.makeBuffer(source, name: "tone"), options: PlayOptions(pan: Float(pan)))
        let mix = try engine.render(frames: 24_000)
        let input = AudioAnalysis.rms(source)
        let expected = Self.panGains(pan)
        let frames = 1_000..<23_000
        let left = AudioAnalysis.rms(mix, channel: 0, frames: frames) / input
        let right = AudioAnalysis.rms(mix, channel: 1, frames: frames) / input
        let ratio = AudioAnalysis.decibels(left / right)
        let expectedRatio = AudioAnalysis.decibels(expected.left / expected.right)
        #expect(abs(ratio - expectedRatio) < 0.5, "pan \(pan): L/R \(ratio) dB, law \(expectedRatio) dB")
        #expect(abs(AudioAnalysis.decibels(left / expected.left)) < 0.5, "left \(left) vs \(expected.left)")
        #expect(
            abs(AudioAnalysis.decibels(right / expected.right)) < 0.5, "right \(right) vs \(expected.right)")
    }

    @Test func positionPansAcrossTheStereoField() throws {
        let engine = try Self.engine()
        try engine.setSpatialLayout(SpatialLayout(width: 80, distanceModel: .none))
        try engine.setListener(SoundPosition(x: 40, y: 24), glide: .zero)
        let tone = try engine.makeBuffer(Signals.sine(frequency: 440, seconds: 0.3), name: "tone")
        for (column, pan) in [(0.0, -1.0), (20, -0.5), (40, 0), (50, 0.25), (70, 0.75)] {
            try engine.play(tone, options: PlayOptions(position: SoundPosition(x: Float(column), y: 24)))
            let mix = try engine.render(frames: 14_400)
            let frames = 1_000..<14_000
            let left = AudioAnalysis.rms(mix, channel: 0, frames: frames)
            let right = AudioAnalysis.rms(mix, channel: 1, frames: frames)
            let expected = Self.panGains(pan)
            if pan == -1 {
                #expect(right < left * 1e-3)
            } else {
                let ratio = AudioAnalysis.decibels(left / right)
                let law = AudioAnalysis.decibels(expected.left / expected.right)
                #expect(abs(ratio - law) < 0.5, "column \(column): \(ratio) dB, pan \(pan) gives \(law) dB")
            }
        }
    }

    @Test(arguments: [
        DistanceModel.inverse(reference: 2, maxDistance: 40, rolloff: 1),
        .linear(reference: 2, maxDistance: 30, rolloff: 0.75),
        .exponential(reference: 1, maxDistance: 50, rolloff: 0.5),
        .none,
    ])
    func distanceFollowsTheModel(model: DistanceModel) throws {
        let engine = try Self.engine()
        try engine.setSpatialLayout(SpatialLayout(width: 80, distanceModel: model))
        try engine.setListener(SoundPosition(x: 10, y: 30), glide: .zero)
        let source = Signals.sine(frequency: 440, seconds: 0.3)
        let tone = try engine.makeBuffer(source, name: "tone")
        let input = AudioAnalysis.rms(source) * Self.panGains(0).left
        for distance: Float in [0, 1, 2, 5, 10, 20, 28, 45] {
            // Straight up the grid from the listener: centred, only farther.
            try engine.play(tone, options: PlayOptions(position: SoundPosition(x: 10, y: 30 - distance)))
            let mix = try engine.render(frames: 14_400)
            let measured = AudioAnalysis.rms(mix, channel: 0, frames: 1_000..<14_000) / input
            let expected = Double(model.gain(atDistance: distance))
            if expected < 1e-3 {
                #expect(measured < 1e-3, "\(model) at \(distance): \(measured)")
            } else {
                let error = AudioAnalysis.decibels(measured / expected)
                #expect(abs(error) < 0.5, "\(model) at \(distance): \(measured) vs \(expected)")
            }
        }
    }

    @Test func aMovingSourceChangesSmoothly() throws {
        let engine = try Self.engine()
        try engine.setSpatialLayout(
            SpatialLayout(width: 80, distanceModel: .linear(reference: 1, maxDistance: 40, rolloff: 0.9)))
        try engine.setListener(SoundPosition(x: 40, y: 40), glide: .zero)
        let source = Signals.sine(frequency: 200, seconds: 2)
        let tone = try engine.makeBuffer(source, name: "tone")
        let voice = try #require(
            try engine.play(tone, options: PlayOptions(position: SoundPosition(x: 0, y: 10))))
        var samples = try engine.render(frames: 9_600).samples
        // Across the field and nearer over 0.5 s, then a jump with no glide (OpenAL still smooths it).
        try engine.setPosition(SoundPosition(x: 80, y: 38), for: voice, glide: .seconds(0.5))
        samples += try engine.render(frames: 33_600).samples
        try engine.setPosition(SoundPosition(x: 10, y: 30), for: voice, glide: .zero)
        samples += try engine.render(frames: 28_800).samples
        let mix = PCMAudio(sampleRate: 48_000, channels: 2, samples: samples)
        // The tone's own largest step between samples, at full scale on one side.
        let ownStep = 0.5 * 2 * Double.pi * 200 / 48_000
        for channel in 0..<2 {
            var largest = 0.0
            for frame in 1..<mix.frameCount {
                let step = abs(
                    Double(mix.samples[frame * 2 + channel] - mix.samples[(frame - 1) * 2 + channel]))
                largest = max(largest, step)
            }
            #expect(largest <= ownStep * 1.01, "channel \(channel): step \(largest) vs the tone's \(ownStep)")
        }
        // It did move: left-heavy at the start, right-heavy after the glide.
        let early = 2_400..<9_600
        let late = 40_000..<43_000
        #expect(
            AudioAnalysis.rms(mix, channel: 0, frames: early) > 10
                * AudioAnalysis.rms(mix, channel: 1, frames: early))
        #expect(
            AudioAnalysis.rms(mix, channel: 1, frames: late) > 10
                * AudioAnalysis.rms(mix, channel: 0, frames: late))
        // The envelope follows the glide: each 5 ms window (one period of the tone) is within 2% of the
        // top level of what the pan law and distance model give on the way, one quantum (256 frames,
        // the step at which the engine moves voices and OpenAL glides to the new gains) earlier.
        let layout = engine.spatialLayout
        let (from, to) = (SoundPosition(x: 0, y: 10), SoundPosition(x: 80, y: 38))
        let listener = SoundPosition(x: 40, y: 40)
        for channel in 0..<2 {
            var worst = 0.0
            var top = 0.0
            for start in stride(from: 9_600, to: 40_800, by: 240) {
                let progress = Float(min(max(Double(start + 120 - 256 - 9_600) / 24_000, 0), 1))
                let (pan, gain) = layout.placement(
                    of: from.interpolated(to: to, progress), listener: listener)
                let law = Self.panGains(Double(pan))
                let expected =
                    AudioAnalysis.rms(source) * (channel == 0 ? law.left : law.right) * Double(gain)
                let level = AudioAnalysis.rms(mix, channel: channel, frames: start..<(start + 240))
                worst = max(worst, abs(level - expected))
                top = max(top, expected)
            }
            #expect(worst < 0.02 * top, "channel \(channel): \(worst) off the model, whose top is \(top)")
        }
    }

    @Test func aMovingListenerMovesTheSound() throws {
        let engine = try Self.engine()
        try engine.setSpatialLayout(SpatialLayout(width: 20, distanceModel: .none))
        let tone = try engine.makeBuffer(Signals.sine(frequency: 300, seconds: 1), name: "tone")
        try engine.play(tone, options: PlayOptions(position: SoundPosition(x: 0, y: 0)))
        let centred = try engine.render(frames: 4_800)
        try engine.setListener(SoundPosition(x: 10, y: 0), glide: .seconds(0.1))
        _ = try engine.render(frames: 9_600)
        let left = try engine.render(frames: 4_800)
        #expect(
            abs(
                AudioAnalysis.decibels(
                    AudioAnalysis.rms(centred, channel: 0) / AudioAnalysis.rms(centred, channel: 1))) < 0.1)
        #expect(AudioAnalysis.rms(left, channel: 0) > 100 * AudioAnalysis.rms(left, channel: 1))
        #expect(engine.listener == SoundPosition(x: 10, y: 0))
    }

    @Test func aNewLayoutPlacesPlayingSoundsAgain() throws {
        let engine = try Self.engine()
        try engine.setSpatialLayout(SpatialLayout(width: 80, distanceModel: .none))
        let tone = try engine.makeBuffer(Signals.sine(frequency: 300, seconds: 1), name: "tone")
        try engine.play(tone, options: PlayOptions(position: SoundPosition(x: 0, y: 20)))
        let before = try engine.render(frames: 9_600)
        let model = DistanceModel.inverse(reference: 5, maxDistance: 100, rolloff: 1)
        try engine.setSpatialLayout(SpatialLayout(width: 80, distanceModel: model))
        _ = try engine.render(frames: 2_400)
        let after = try engine.render(frames: 9_600)
        let change = AudioAnalysis.decibels(
            AudioAnalysis.rms(after, channel: 0) / AudioAnalysis.rms(before, channel: 0))
        let expected = AudioAnalysis.decibels(Double(model.gain(atDistance: 20)))
        #expect(abs(change - expected) < 0.5, "\(change) dB, the model gives \(expected) dB")
    }

    @Test func stereoKeepsItsWidthUnlessSpatialised() throws {
        let engine = try Self.engine()
        try engine.setListener(SoundPosition(x: 0, y: 0), glide: .zero)
        let source = Signals.stereoTones(left: 300, right: 1_000, seconds: 0.5)
        let tones = try engine.makeBuffer(source, name: "tones")
        try engine.play(tones, options: PlayOptions(position: SoundPosition(x: 0, y: 0)))
        let wide = try engine.render(frames: source.frameCount)
        let largest = zip(wide.samples, source.samples).map { abs($0 - $1) }.max() ?? 1
        #expect(largest < 1e-5, "a centred stereo sound at the listener is unchanged")
        try engine.play(tones, options: PlayOptions(position: SoundPosition(x: 0, y: 0), spatialize: true))
        let point = try engine.render(frames: source.frameCount)
        let frames = 2_000..<20_000
        // Downmixed: each side carries both tones.
        for channel in 0..<2 {
            let low = Self.energy(point, at: 300, channel: channel, frames: frames)
            let high = Self.energy(point, at: 1_000, channel: channel, frames: frames)
            #expect(abs(10 * log10(low / high)) < 1, "channel \(channel): \(low) vs \(high)")
        }
    }

    @Test(arguments: [ReverbPreset.cave, .concertHall, .hallway, .generic])
    func aReverbSendLeavesATailThatDecaysWithThePreset(preset: ReverbPreset) throws {
        // A 20 ms burst at 500 Hz: the preset's decay time is the mid band's (its high band, above
        // 5 kHz, decays at decayHFRatio times it).
        func render(_ preset: ReverbPreset?) throws -> PCMAudio {
            let engine = try Self.engine()
            try engine.setReverb(preset, for: .effects)
            try engine.play(try engine.makeBuffer(Signals.sine(frequency: 500, seconds: 0.02), name: "burst"))
            return try engine.render(frames: 48_000 * 2)
        }
        let dry = try render(nil)
        let wet = try render(preset)
        let tail = 4_800..<28_800
        #expect(AudioAnalysis.rms(dry, frames: tail) == 0)
        let level = AudioAnalysis.decibels(AudioAnalysis.rms(wet, frames: tail))
        #expect(level > -60, "\(preset) tail at \(level) dBFS")
        // Decay: the slope of the level in dB over 0.2...1 s, extended to -60 dB.
        var points: [(Double, Double)] = []
        for start in stride(from: 9_600, to: 48_000, by: 2_400) {
            let rms = AudioAnalysis.rms(wet, frames: start..<(start + 2_400))
            points.append((Double(start) / 48_000, AudioAnalysis.decibels(rms)))
        }
        let meanT = points.map(\.0).reduce(0, +) / Double(points.count)
        let meanL = points.map(\.1).reduce(0, +) / Double(points.count)
        let slope =
            points.map { ($0.0 - meanT) * ($0.1 - meanL) }.reduce(0, +)
            / points.map { ($0.0 - meanT) * ($0.0 - meanT) }.reduce(0, +)
        let decay = -60 / slope
        let expected = Double(preset.parameters.decayTime)
        #expect(abs(decay - expected) / expected < 0.25, "\(preset): decay \(decay) s, preset \(expected) s")
    }

    @Test func lowpassLowersHighFrequencies() throws {
        let source = Self.twoTones(low: 200, high: 12_000)
        func render(bus: SoundFilter?, voice: SoundFilter?) throws -> PCMAudio {
            let engine = try Self.engine()
            try engine.setFilter(bus, for: .effects)
            try engine.play(try engine.makeBuffer(source, name: "tones"), options: PlayOptions(filter: voice))
            return try engine.render(frames: source.frameCount)
        }
        let plain = try render(bus: nil, voice: nil)
        let frames = 4_800..<19_200
        for (bus, voice) in [
            (SoundFilter.lowpass(cutoff: 500), nil), (nil, SoundFilter.lowpass(cutoff: 500)),
        ] {
            let filtered = try render(bus: bus, voice: voice)
            let high =
                10
                * log10(
                    Self.energy(filtered, at: 12_000, channel: 0, frames: frames)
                        / Self.energy(plain, at: 12_000, channel: 0, frames: frames))
            let low =
                10
                * log10(
                    Self.energy(filtered, at: 200, channel: 0, frames: frames)
                        / Self.energy(plain, at: 200, channel: 0, frames: frames))
            #expect(high < -20, "12 kHz: \(high) dB")
            #expect(abs(low) < 1.5, "200 Hz: \(low) dB")
        }
    }

    @Test func highpassLowersLowFrequencies() throws {
        let source = Self.twoTones(low: 60, high: 4_000)
        func render(_ filter: SoundFilter?) throws -> PCMAudio {
            let engine = try Self.engine()
            try engine.setFilter(filter, for: .effects)
            try engine.play(try engine.makeBuffer(source, name: "tones"))
            return try engine.render(frames: source.frameCount)
        }
        let plain = try render(nil)
        let filtered = try render(.highpass(cutoff: 2_500))
        let frames = 4_800..<19_200
        let low =
            10
            * log10(
                Self.energy(filtered, at: 60, channel: 0, frames: frames)
                    / Self.energy(plain, at: 60, channel: 0, frames: frames))
        let high =
            10
            * log10(
                Self.energy(filtered, at: 4_000, channel: 0, frames: frames)
                    / Self.energy(plain, at: 4_000, channel: 0, frames: frames))
        #expect(low < -20, "60 Hz: \(low) dB")
        #expect(abs(high) < 1.5, "4 kHz: \(high) dB")
    }

    @Test func badValuesAreErrorsNamingThem() throws {
        let engine = try Self.engine()
        func message(_ body: () throws -> Void) -> String {
            do {
                try body()
                return ""
            } catch { return (error as? AudioEngineError)?.description ?? "\(error)" }
        }
        #expect(message { try PlayOptions.check(pan: 1.5) }.contains("invalid pan 1.5"))
        #expect(message { try PlayOptions(pan: -2).check() }.contains("pan -2.0"))
        #expect(message { try engine.setListener(SoundPosition(x: .nan, y: 0)) }.contains("listener x nan"))
        #expect(
            message { try PlayOptions(position: SoundPosition(x: 0, y: .infinity)).check() }
                .contains("position y inf"))
        #expect(
            message {
                try engine.setSpatialLayout(
                    SpatialLayout(distanceModel: .inverse(reference: -1, maxDistance: 10, rolloff: 1)))
            }.contains("reference distance -1.0"))
        #expect(
            message {
                try engine.setSpatialLayout(
                    SpatialLayout(distanceModel: .linear(reference: 5, maxDistance: 2, rolloff: 1)))
            }.contains("max distance 2.0"))
        #expect(
            message { try SoundFilter.checkCutoff(30_000, sampleRate: 48_000) }.contains("cutoff 30000.0 Hz"))
        #expect(message { try engine.setFilter(.lowpass(gainHF: 2), for: .music) }.contains("gainHF 2.0"))
        var reverb = ReverbPreset.concertHall.parameters
        reverb.decayTime = 50
        #expect(message { try engine.setReverb(reverb, for: .music) }.contains("decayTime 50.0"))
        #expect(ReverbPreset.named("Concert-Hall") == .concertHall)
        #expect(ReverbPreset.named("spaceship") == nil)
        // Nothing bad reached the engine: the listener and layout are as before.
        #expect(engine.listener == SoundPosition(x: 0, y: 0))
        #expect(engine.spatialLayout == SpatialLayout())
        // A NaN position is an error naming it, and nothing plays.
        let tone = try engine.makeBuffer(Signals.sine(frequency: 440, seconds: 0.1), name: "tone")
        #expect(
            message { try engine.play(tone, options: PlayOptions(position: SoundPosition(x: .nan, y: 0))) }
                .contains("position x nan"))
        #expect(AudioAnalysis.peak(try engine.render(frames: 4_800)) == 0)
    }

    @Test func rendersWithSpaceAreIdentical() throws {
        func render() throws -> [Float] {
            let engine = try Self.engine()
            try engine.setSpatialLayout(.grid(columns: 60, rows: 20))
            try engine.setListener(SoundPosition(x: 30, y: 19), glide: .zero)
            try engine.setReverb(.hallway, for: .effects)
            try engine.setFilter(.lowpass(cutoff: 1_000), for: .effects)
            let tone = try engine.makeBuffer(Signals.noise(seconds: 0.4), name: "noise")
            let voice = try engine.play(tone, options: PlayOptions(position: SoundPosition(x: 5, y: 2)))
            var samples = try engine.render(frames: 4_000).samples
            try engine.setPosition(
                SoundPosition(x: 50, y: 18), for: try #require(voice), glide: .seconds(0.2))
            samples += try engine.render(frames: 30_000).samples
            return samples
        }
        #expect(try render() == (try render()))
    }

    static func twoTones(low: Double, high: Double) -> PCMAudio {
        let a = Signals.sine(frequency: low, seconds: 0.5, amplitude: 0.3)
        let b = Signals.sine(frequency: high, seconds: 0.5, amplitude: 0.3)
        return PCMAudio(sampleRate: 48_000, channels: 1, samples: zip(a.samples, b.samples).map { $0 + $1 })
    }
}

@Suite struct HRTFTests {
    /// The events `engine` sends from now on.
    static func recording(_ engine: AudioEngine) -> Locked<[SoundEvent]> {
        let seen = Locked<[SoundEvent]>([])
        engine.onEvent { event in seen.withLock { $0.append(event) } }
        return seen
    }

    /// The HRTF statuses among `events`.
    static func statuses(_ events: Locked<[SoundEvent]>) -> [HRTFStatus] {
        events.withLock { $0 }.compactMap { if case .hrtf(let status, _) = $0 { status } else { nil } }
    }

    @Test func hrtfIsOffByDefaultAndReportsItsStatus() throws {
        let engine = try AudioEngine(output: .offline(sampleRate: 48_000, channels: 2))
        let seen = Self.recording(engine)
        #expect(engine.hrtfStatus == .disabled)
        let tone = try engine.makeBuffer(Signals.sine(frequency: 440, seconds: 0.5), name: "tone")
        engine.setHRTF(true)
        // The call only asks: offline, the next render carries it out.
        #expect(engine.hrtfStatus == .disabled)
        try engine.play(tone, options: PlayOptions(pan: -0.5))
        let mix = try engine.render(frames: 12_000)
        let status = try #require(Self.statuses(seen).first)
        #expect(status != .disabled)
        #expect(engine.hrtfStatus == status)
        #expect(seen.withLock { $0 }.contains(.hrtf(status, time: .zero)))
        #expect(AudioAnalysis.rms(mix, channel: 0) > AudioAnalysis.rms(mix, channel: 1))
        if status.isOn {
            // Through HRTF the far ear still hears the sound, unlike the stereo panner at -0.5.
            #expect(AudioAnalysis.rms(mix, channel: 1) > 0.05 * AudioAnalysis.rms(mix, channel: 0))
        }
        engine.setHRTF(false)
        _ = try engine.render(frames: 0)
        #expect(engine.hrtfStatus == .disabled)
        #expect(Self.statuses(seen) == [status, .disabled])
    }

    /// A device opened in place of a lost one is given the setting the lost one had, and the status
    /// it reports is what ``AudioEngine/hrtfStatus`` reads.
    @Test func aReopenedDeviceKeepsTheSetting() throws {
        let engine = try AudioEngine(output: .offline(sampleRate: 48_000, channels: 2))
        engine.setHRTF(true)
        _ = try engine.render(frames: 0)
        let status = engine.hrtfStatus
        let lost = engine.device
        engine.mixer.run {
            engine.mixer.update { $0.deviceLost = true }
            engine.mixer.reopenIfLost { try? OpenALDevice(loopbackSampleRate: 48_000, channels: 2) }
        }
        #expect(engine.device !== lost)
        _ = try engine.render(frames: 0)
        #expect(engine.hrtfStatus == status)
        #expect(HRTFStatus(engine.device.hrtfStatus) == status)
    }

    /// On a driver's thread (silent output mixes on a mono device, which HRTF cannot serve), the
    /// status is published by the round that carried the call out.
    @Test func aQuietEnginePublishesWhatItsDeviceSays() throws {
        let engine = try AudioEngine(output: .silent)
        defer { engine.shutdown() }
        let seen = Self.recording(engine)
        let before = engine.hrtfStatus
        engine.setHRTF(true)
        #expect(engine.waitForMixer(timeout: .seconds(10)))
        let status = try #require(Self.statuses(seen).first)
        #expect(engine.hrtfStatus == status)
        #expect(!status.isOn)
        #expect(before == .disabled || before == .unavailable)
    }
}
