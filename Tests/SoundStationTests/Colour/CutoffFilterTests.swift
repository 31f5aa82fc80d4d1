import Foundation
import SoundStationTesting
import Testing

@testable import SoundStation

/// The engine's own cutoff filters (low-pass, high-pass, band-pass in hertz), measured on offline
/// renders against the same render unfiltered.
@Suite struct CutoffFilterTests {
    static let rate = 48_000

    /// Equal sines at `frequencies`, mono, 0.1 each: a spectrum whose lines a filter should move.
    static func tones(_ frequencies: [Double], seconds: Double = 1, channels: Int = 1) -> PCMAudio {
        let frames = Int(seconds * Double(rate))
        var samples = [Float](repeating: 0, count: frames * channels)
        for frame in 0..<frames {
            let t = Double(frame) / Double(rate)
            let value = frequencies.reduce(0.0) { $0 + 0.1 * sin(2 * .pi * $1 * t + $1) }
            for channel in 0..<channels { samples[frame * channels + channel] = Float(value) }
        }
        return PCMAudio(sampleRate: rate, channels: channels, samples: samples)
    }

    static func engine() throws -> AudioEngine {
        try AudioEngine(output: .offline(sampleRate: rate, channels: 2))
    }

    /// Each tone's level in `filtered` against `plain`, in dB, over whole seconds' worth of frames.
    static func change(_ filtered: PCMAudio, _ plain: PCMAudio, at frequency: Double, frames: Range<Int>)
        -> Double
    {
        AudioAnalysis.decibels(
            AudioAnalysis.amplitude(of: frequency, in: filtered, frames: frames)
                / AudioAnalysis.amplitude(of: frequency, in: plain, frames: frames))
    }

    /// Renders `source` played on `bus`, with `busFilter` on the bus and `voiceFilter` on the voice.
    static func render(
        _ source: PCMAudio, bus: Bus = .effects, busFilter: SoundFilter? = nil,
        voiceFilter: SoundFilter? = nil
    ) throws -> PCMAudio {
        let engine = try engine()
        try engine.setFilter(busFilter, for: bus)
        try engine.play(
            try engine.makeBuffer(source, name: "tones"), options: PlayOptions(bus: bus, filter: voiceFilter))
        return try engine.render(frames: source.frameCount)
    }

    /// Frames well inside the sound, past the filter's settling.
    static let measured = 4_800..<43_200

    /// A filter at F and the tones it must take 20 dB off (beyond 4F for a low-pass, under F/4 for a
    /// high-pass) and keep within 1.5 dB (under F/2, beyond 2F).
    struct Mirror: Sendable, CustomStringConvertible {
        var filter: SoundFilter
        var stopped: [Double]
        var passed: [Double]
        var description: String { filter.description }
    }

    static let mirrors = [
        Mirror(filter: .lowpass(cutoff: 800), stopped: [3_300, 6_000, 12_000], passed: [100, 250, 390]),
        Mirror(filter: .highpass(cutoff: 2_000), stopped: [100, 250, 480], passed: [4_100, 8_000, 15_000]),
    ]

    @Test(arguments: mirrors, [(Bus.music, true), (Bus.effects, false)])
    func aCutoffTakesTwentyDecibelsOffItsStopBandAndKeepsItsPassBand(mirror: Mirror, on: (Bus, Bool)) throws {
        let (bus, onBus) = on
        let source = Self.tones(mirror.stopped + mirror.passed)
        let plain = try Self.render(source, bus: bus)
        let filtered = try Self.render(
            source, bus: bus, busFilter: onBus ? mirror.filter : nil, voiceFilter: onBus ? nil : mirror.filter
        )
        for frequency in mirror.stopped {
            let change = Self.change(filtered, plain, at: frequency, frames: Self.measured)
            #expect(change <= -20, "\(bus) \(mirror) at \(frequency) Hz: \(change) dB")
        }
        for frequency in mirror.passed {
            let change = Self.change(filtered, plain, at: frequency, frames: Self.measured)
            #expect(abs(change) <= 1.5, "\(bus) \(mirror) at \(frequency) Hz: \(change) dB")
        }
    }

    @Test func bandpassKeepsItsCentreAndTakesTheEdgesOff() throws {
        let source = Self.tones([120, 1_000, 8_000])
        let plain = try Self.render(source)
        let filtered = try Self.render(source, voiceFilter: .bandpass(center: 1_000, q: 2))
        let centre = Self.change(filtered, plain, at: 1_000, frames: Self.measured)
        #expect(abs(centre) <= 1.5, "band-pass centre: \(centre) dB")
        for frequency in [120.0, 8_000] {
            let change = Self.change(filtered, plain, at: frequency, frames: Self.measured)
            #expect(change <= -20, "band-pass 1 kHz Q 2 at \(frequency) Hz: \(change) dB")
        }
    }

    @Test func anEffectStartedUnderANewFilterIsFilteredFromItsFirstSample() throws {
        // A filter switched on fades in over 10 ms for what was already playing, not for what starts.
        let source = Self.tones([200, 6_000])
        let plain = try Self.render(source)
        let filtered = try Self.render(source, busFilter: .lowpass(cutoff: 800))
        let change = Self.change(filtered, plain, at: 6_000, frames: 0..<960)
        #expect(change <= -20, "6 kHz in the first 20 ms: \(change) dB")
    }

    @Test func aStreamedTrackIsMuffledWhileItPlays() async throws {
        let assets = try TestAssets()
        let track = Self.tones([200, 6_000], seconds: 2, channels: 2)
        try assets.addWAV("theme", track, kind: "music")
        func render(muffle: Bool) async throws -> PCMAudio {
            let system = try await assets.system()
            try system.music.play("theme")
            if muffle {
                system.engine.schedule(at: .milliseconds(500)) {
                    try? system.engine.setFilter(.lowpass(cutoff: 1_000), for: .music)
                }
            }
            return try system.engine.render(frames: 2 * Self.rate)
        }
        let plain = try await render(muffle: false)
        let muffled = try await render(muffle: true)
        let before = 0..<(Self.rate / 2)
        #expect(muffled.samples[0..<(Self.rate)] == plain.samples[0..<(Self.rate)])
        #expect(AudioAnalysis.largestDifference(muffled, at: 0, plain, from: 0, to: before.upperBound) == 0)
        // Heard within the filtered queue's latency of the change.
        let after = (Self.rate / 2 + 4_096 + 2_400)..<(2 * Self.rate - 2_400)
        let high = Self.change(muffled, plain, at: 6_000, frames: after)
        let low = Self.change(muffled, plain, at: 200, frames: after)
        #expect(high <= -20, "6 kHz under a 1 kHz low-pass: \(high) dB")
        #expect(abs(low) <= 1.5, "200 Hz under a 1 kHz low-pass: \(low) dB")
        // The hand-over from the stream's queue to the filtered one leaves no click.
        let seam = (Self.rate / 2 - 4_800)..<(Self.rate / 2 + 9_600)
        #expect(
            AudioAnalysis.largestJump(muffled, frames: seam)
                <= AudioAnalysis.largestJump(plain, frames: seam) * 1.05)
    }

    /// A streamed stereo track under a bus filter from its first frame: its feeder is made before the
    /// stream's worker has opened the file and knows it has two channels.
    @Test func aStreamedStereoTrackFilteredFromItsStartKeepsItsLevel() async throws {
        let assets = try TestAssets()
        let track = Self.tones([200, 6_000], seconds: 2, channels: 2)
        try assets.addWAV("theme", track, kind: "music", extra: "\"stream\": true")
        func render(muffle: Bool) async throws -> PCMAudio {
            let system = try await assets.system()
            if muffle { try system.engine.setFilter(.lowpass(cutoff: 1_000), for: .music) }
            try system.music.play("theme")
            return try system.engine.render(frames: 2 * Self.rate)
        }
        let plain = try await render(muffle: false)
        let muffled = try await render(muffle: true)
        let after = (Self.rate / 2)..<(2 * Self.rate - 2_400)
        let high = Self.change(muffled, plain, at: 6_000, frames: after)
        let low = Self.change(muffled, plain, at: 200, frames: after)
        #expect(high <= -20, "6 kHz under a 1 kHz low-pass: \(high) dB")
        #expect(abs(low) <= 1.5, "200 Hz under a 1 kHz low-pass: \(low) dB")
    }

    @Test func aGlidedCutoffMovesSmoothly() throws {
        let source = Self.tones([150, 700, 3_000, 9_000], seconds: 2)
        func render(glide: Bool) throws -> PCMAudio {
            let engine = try Self.engine()
            try engine.play(try engine.makeBuffer(source, name: "tones"), options: PlayOptions(bus: .music))
            if glide {
                engine.schedule(at: .milliseconds(500)) {
                    try? engine.setFilter(.lowpass(cutoff: 400), for: .music, glide: .seconds(1))
                }
            }
            return try engine.render(frames: source.frameCount)
        }
        let plain = try render(glide: false)
        let glided = try render(glide: true)
        let whole = 1..<plain.frameCount
        #expect(
            AudioAnalysis.largestJump(glided, frames: whole)
                <= AudioAnalysis.largestJump(plain, frames: whole))
        // The 3 kHz line falls step by step over the glide, not at once.
        let levels = stride(from: 24_000, to: 96_000, by: 4_800).map {
            Self.change(glided, plain, at: 3_000, frames: $0..<($0 + 4_800))
        }
        let drops = zip(levels, levels.dropFirst()).map { $1 - $0 }
        #expect(levels.first! > -1 && levels.last! < -20, "3 kHz over the glide: \(levels)")
        #expect(drops.allSatisfy { $0 < 0.5 }, "the level never rises: \(drops)")
        #expect(drops.allSatisfy { $0 > -10 }, "no step of more than 10 dB in 100 ms: \(drops)")
    }

    @Test func filteredRendersAreByteIdenticalRunToRun() throws {
        func render() throws -> PCMAudio {
            let engine = try Self.engine()
            let source = Self.tones([200, 2_000, 9_000])
            let tones = try engine.makeBuffer(source, name: "tones")
            try engine.setFilter(.highpass(cutoff: 300, q: 1.5), for: .effects)
            try engine.play(tones, options: PlayOptions(loop: true, bus: .music))
            let voice = try engine.play(
                tones, options: PlayOptions(pitch: 1.3, filter: .bandpass(center: 900)))
            engine.schedule(at: .milliseconds(300)) {
                try? engine.setFilter(.lowpass(cutoff: 600), for: .music, glide: .milliseconds(400))
                if let voice {
                    try? engine.setFilter(.lowpass(cutoff: 3_000), for: voice, glide: .seconds(0.2))
                }
            }
            return try engine.render(frames: Self.rate * 3 / 2)
        }
        let first = try render()
        #expect(AudioAnalysis.rms(first) > 0.01)
        #expect(try render().samples == first.samples)
    }

    @Test func unfilteredVoicesAreByteIdenticalBesideAFilteredBus() throws {
        let source = Self.tones([200, 2_000, 9_000])
        func render(filterMusic: Bool) throws -> PCMAudio {
            let engine = try Self.engine()
            if filterMusic {
                try engine.setFilter(.lowpass(cutoff: 500), for: .music, glide: .milliseconds(100))
                try engine.setFilter(.highpass(cutoff: 500), for: .voice)
                try engine.setFilter(nil, for: .voice)
            }
            try engine.play(try engine.makeBuffer(source, name: "tones"), options: PlayOptions(pan: -0.3))
            return try engine.render(frames: source.frameCount)
        }
        #expect(try render(filterMusic: true).samples == render(filterMusic: false).samples)
    }

    @Test func aLoopingVoiceKeepsLoopingFiltered() throws {
        let engine = try Self.engine()
        let short = Self.tones([300], seconds: 0.25)
        try engine.setFilter(.lowpass(cutoff: 4_000), for: .effects)
        let voice = try engine.play(
            try engine.makeBuffer(short, name: "short"), options: PlayOptions(loop: true))
        let mix = try engine.render(frames: Self.rate)
        #expect(engine.isActive(voice!))
        let last = AudioAnalysis.amplitude(of: 300, in: mix, frames: 36_000..<48_000)
        #expect(last > 0.05, "still heard after four loops: \(last)")
    }

    @Test func aFilteredVoiceSeeksAndStaysFiltered() throws {
        // The source: 200 Hz + 6 kHz for 1 s, then silence for 1 s; seeking back into the tones from
        // the silence must bring them back, still filtered.
        let tones = Self.tones([200, 6_000])
        let source = PCMAudio(
            sampleRate: Self.rate, channels: 1,
            samples: tones.samples + [Float](repeating: 0, count: Self.rate))
        let engine = try Self.engine()
        try engine.setFilter(.lowpass(cutoff: 800), for: .effects)
        let voice = try #require(try engine.play(try engine.makeBuffer(source, name: "tones")))
        _ = try engine.render(frames: Self.rate * 3 / 2)
        try engine.seek(voice, toFrame: 12_000)
        let after = try engine.render(frames: Self.rate / 4)
        #expect(engine.position(of: voice).map { $0 >= 12_000 } == true)
        let low = AudioAnalysis.amplitude(of: 200, in: after, frames: 2_400..<9_600)
        let high = AudioAnalysis.amplitude(of: 6_000, in: after, frames: 2_400..<9_600)
        #expect(low > 0.03, "200 Hz back after the seek: \(low)")
        #expect(AudioAnalysis.decibels(high / low) < -25, "6 kHz still filtered: \(high) against \(low)")
    }

    @Test func badCutoffsAndResonancesAreErrorsNamingTheValue() throws {
        let engine = try Self.engine()
        func message(_ filter: SoundFilter) -> String {
            do {
                try engine.setFilter(filter, for: .music)
                return ""
            } catch { return error.description }
        }
        #expect(message(.lowpass(cutoff: 30_000)).contains("30000.0 Hz"))
        #expect(message(.lowpass(cutoff: 30_000)).contains("24000.0"))
        #expect(message(.highpass(cutoff: .nan)).contains("nan"))
        #expect(message(.bandpass(center: 1_000, q: 0)).contains("filter Q"))
        #expect(message(.bandpass(center: 1_000, q: -2)).contains("-2.0"))
        #expect(message(.lowpass(cutoff: 1_000, q: .infinity)).contains("inf"))
        #expect(throws: AudioEngineError.self) {
            try engine.setFilter(.lowpass(cutoff: 500), for: .music, glide: .seconds(-1))
        }
        #expect(engine.filter(of: .music) == nil)
    }
}
