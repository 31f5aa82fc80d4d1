import Foundation
import SoundStationTesting
import Testing

@testable import SoundStation

/// The real device path: OpenAL Soft plays through PulseAudio's null sink and the sink's monitor is
/// recorded back. Serialized: they share one sink.
@Suite(
    .serialized, .enabled(if: PulseServer.isAvailable, "needs the private PulseAudio server of `make test`"))
struct DeviceTests {
    /// The null sink's monitor, holding up to 10 s between reads: a reader held up (a loaded
    /// machine) loses nothing, where the default 2 s dropped what came meanwhile.
    static func monitor(sampleRate: Int, channels: Int) throws -> CaptureDevice {
        try CaptureDevice(sampleRate: sampleRate, channels: channels, buffer: .seconds(10))
    }

    /// Sleeps `milliseconds` on this thread. A recording is read between such sleeps, not awaits: a
    /// task's wake-up waits for a free thread of the cooperative pool (two on two cores), which other
    /// suites' synchronous tests may hold for seconds (run 28 beside two busy loops: the muffled
    /// sound's test recorded under 1.4 s of audio in its 8 s).
    static func pause(milliseconds: Int) { usleep(useconds_t(milliseconds * 1_000)) }

    /// Reads `capture` (started) until it has given `samples` samples or `time` has passed, then stops it.
    static func record(_ capture: CaptureDevice, samples: Int, within time: Duration) -> [Float] {
        var recorded: [Float] = []
        let deadline = ContinuousClock.now + time
        while recorded.count < samples, ContinuousClock.now < deadline {
            pause(milliseconds: 50)
            recorded += capture.read()
        }
        capture.stop()
        return recorded
    }

    @Test func playedToneComesOutOfTheDefaultDevice() throws {
        let engine = try AudioEngine(output: .device())
        #expect(engine.voiceLimit >= 64)
        let tone = try engine.makeBuffer(
            Signals.sine(frequency: 1_000, seconds: 2, sampleRate: 48_000, amplitude: 0.5), name: "tone")
        let capture = try Self.monitor(sampleRate: 16_000, channels: 1)
        capture.start()
        try engine.play(tone)
        let recorded = Self.record(capture, samples: 16_000 * 3 / 2, within: .seconds(5))
        let audio = PCMAudio(sampleRate: 16_000, channels: 1, samples: recorded)
        let onset = try #require(
            AudioAnalysis.onset(audio, threshold: 0.05), "the tone never reached the monitor")
        let window = onset + 1_600..<min(onset + 9_600, audio.frameCount)
        #expect(window.count > 4_000)
        let frequency = AudioAnalysis.zeroCrossingFrequency(audio, frames: window)
        #expect(abs(frequency - 1_000) < 20, "heard \(frequency) Hz")
        #expect(AudioAnalysis.rms(audio, frames: window) > 0.1)
    }

    @Test func aPlayingSoundIsMuffledOnTheDeviceWithoutAnUnderrun() throws {
        let engine = try AudioEngine(output: .device())
        defer { engine.shutdown() }
        let low = Signals.sine(frequency: 300, seconds: 1, amplitude: 0.25)
        let high = Signals.sine(frequency: 6_000, seconds: 1, amplitude: 0.25)
        let mixed = PCMAudio(
            sampleRate: 48_000, channels: 1, samples: zip(low.samples, high.samples).map { $0 + $1 })
        let voice = try #require(
            engine.play(try engine.makeBuffer(mixed, name: "tones"), options: PlayOptions(loop: true)))
        let capture = try Self.monitor(sampleRate: 16_000, channels: 1)
        capture.start()
        var recorded: [Float] = []
        // The recorded frame count when the filter was set: a loaded machine may hand over the
        // capture in large pieces, so the recording runs on for 1.25 s of audio after that.
        var muffledAt: Int?
        let deadline = ContinuousClock.now + .seconds(8)
        while recorded.count < (muffledAt ?? .max / 2) + 16_000 * 5 / 4, ContinuousClock.now < deadline {
            Self.pause(milliseconds: 50)
            recorded += capture.read()
            if muffledAt == nil, recorded.count >= 16_000 * 3 / 4 {
                // Moved onto the filtered path while it plays.
                try engine.setFilter(.lowpass(cutoff: 1_000), for: .effects)
                muffledAt = recorded.count
            }
        }
        capture.stop()
        #expect(engine.isActive(voice))
        #expect(engine.underrunCount == 0)
        let audio = PCMAudio(sampleRate: 16_000, channels: 1, samples: recorded)
        let onset = try #require(AudioAnalysis.onset(audio, threshold: 0.05), "nothing reached the monitor")
        let before = (onset + 800)..<(onset + 4_800)
        let after = (audio.frameCount - 6_400)..<(audio.frameCount - 800)
        let setAt = try #require(muffledAt, "the filter was never set")
        #expect(before.upperBound < setAt && after.lowerBound > setAt + 16_000 / 4)
        func level(_ frequency: Double, _ frames: Range<Int>) -> Double {
            AudioAnalysis.amplitude(of: frequency, in: audio, frames: frames)
        }
        let highChange = AudioAnalysis.decibels(level(6_000, after) / level(6_000, before))
        let lowChange = AudioAnalysis.decibels(level(300, after) / level(300, before))
        #expect(highChange < -20, "6 kHz on the device under a 1 kHz low-pass: \(highChange) dB")
        #expect(abs(lowChange) < 1.5, "300 Hz: \(lowChange) dB")
    }

    @Test func theLowLatencyHintShortensTheMixingPeriod() throws {
        let normal = try AudioEngine(output: .device())
        let normalRefresh = normal.device.refresh
        normal.shutdown()
        let low = try AudioEngine(output: .device(latency: .low))
        let lowRefresh = low.device.refresh
        #expect(try #require(low.mixingPeriod) <= .milliseconds(5))
        let tone = try low.makeBuffer(Signals.sine(frequency: 1_000, seconds: 0.1), name: "tone")
        #expect(try low.play(tone) != nil)
        low.shutdown()
        #expect(normalRefresh > 0 && normalRefresh < 100, "default: \(normalRefresh) mixes a second")
        #expect(lowRefresh >= 4 * normalRefresh, "low latency: \(lowRefresh) mixes a second")
    }

    @Test(arguments: [false, true])
    func aLayeredTracksStemsStartInTheSameMix(streamed: Bool) async throws {
        // The same noise as the track's left channel and its stem's right: recorded from the monitor,
        // the two sides line up at lag 0 only if the stems started in the same mix (alSourcePlayv).
        let assets = try TestAssets()
        let noise = Signals.noise(seconds: 2, amplitude: 0.4, seed: 9).samples
        func stereo(left: Bool) -> PCMAudio {
            PCMAudio(sampleRate: 48_000, channels: 2, samples: noise.flatMap { left ? [$0, 0] : [0, $0] })
        }
        try WAVWriter.write(stereo(left: false), toFileAt: "\(assets.root)/right.wav", format: .float32)
        try assets.addWAV(
            "layered", stereo(left: true), kind: "music",
            extra: "\"stream\": \(streamed), \"stems\": [{\"path\": \"right.wav\"}]")
        let engine = try AudioEngine(output: .device())
        let system = SoundSystem(engine: engine, catalogue: try assets.catalogue())
        try (try await system.bank.preload()).throwIfFailed()
        let capture = try Self.monitor(sampleRate: 48_000, channels: 2)
        capture.start()
        try system.music.play("layered")
        let recorded = Self.record(capture, samples: 48_000 * 2 * 3 / 2, within: .seconds(5))
        engine.shutdown()
        let audio = PCMAudio(sampleRate: 48_000, channels: 2, samples: recorded)
        let onset = try #require(AudioAnalysis.onset(audio, threshold: 0.05), "nothing reached the monitor")
        let window = (onset + 4_800)..<(onset + 14_400)
        #expect(window.upperBound + 512 < audio.frameCount)
        let scores = (-480...480).map { lag in
            (
                lag,
                window.reduce(0.0) {
                    $0 + Double(audio.samples[$1 * 2]) * Double(audio.samples[($1 + lag) * 2 + 1])
                }
            )
        }
        let best = scores.max { $0.1 < $1.1 }?.0
        #expect(best == 0, "streamed \(streamed): the stem is \(best ?? -1) frames off the track")
    }

    /// On the device too, a reverb nothing sends to rests after its tail (on the driver's clock, with
    /// nothing else to wake it) and the next sound wakes it: its tail reaches the monitor.
    @Test func aReverbRestsAndWakesOnTheDevice() throws {
        let engine = try AudioEngine(output: .device())
        defer { engine.shutdown() }
        let reverb = ReverbRestTests.shortReverb
        try engine.setReverb(reverb, for: .effects)
        let burst = try engine.makeBuffer(
            Signals.sine(frequency: 500, seconds: 0.02, sampleRate: 48_000, amplitude: 0.5), name: "burst")
        try engine.play(burst)
        // Timed from the burst's end as the engine sees it (a device just opened may take a while to
        // start mixing), polling every 10 ms.
        // On this thread (``pause(milliseconds:)``): an instant seen late measures the pool, not the rest.
        func waitFor(_ seconds: Double, _ done: () -> Bool) -> ContinuousClock.Instant {
            let deadline = ContinuousClock.now + .seconds(seconds)
            while !done(), ContinuousClock.now < deadline { Self.pause(milliseconds: 10) }
            return ContinuousClock.now
        }
        _ = waitFor(2) { engine.activeVoiceCount == 1 }
        let ended = waitFor(5) {
            engine.mixer.run { engine.mixer.state.space.reverbQuietSince[.effects] != nil }
        }
        let rested = waitFor(5) { !ReverbRestTests.resting(engine).isEmpty }
        let restSeconds = Double(reverb.restFrames(rate: engine.sampleRate)) / Double(engine.sampleRate)
        let after = (rested - ended) / .seconds(1)
        #expect(ReverbRestTests.resting(engine) == [.effects])
        #expect(after > restSeconds - 0.05 && after < restSeconds + 0.3, "rested \(after) s after the end")
        let capture = try Self.monitor(sampleRate: 48_000, channels: 1)
        capture.start()
        Self.pause(milliseconds: 100)
        try engine.play(burst)
        let woke = waitFor(1) { ReverbRestTests.resting(engine).isEmpty }
        #expect(
            ReverbRestTests.resting(engine).isEmpty,
            "woken within \((woke - ContinuousClock.now) / .seconds(1)) s")
        let recorded = Self.record(capture, samples: 48_000 * 3 / 2, within: .seconds(4))
        let audio = PCMAudio(sampleRate: 48_000, channels: 1, samples: recorded)
        let onset = try #require(
            AudioAnalysis.onset(audio, threshold: 0.05), "the burst never reached the monitor")
        // The burst lasts 20 ms; 100 to 400 ms after it only the woken reverb's tail is left.
        let tail = (onset + 4_800)..<min(onset + 19_200, audio.frameCount)
        let level = AudioAnalysis.rms(audio, frames: onset..<(onset + 960))
        let tailLevel = AudioAnalysis.rms(audio, frames: tail)
        #expect(
            AudioAnalysis.decibels(tailLevel / level) > -50, "tail \(tailLevel) against the burst \(level)")
    }

    @Test func deviceListsNameTheNullSinkAndItsMonitor() {
        #expect(!AudioEngine.playbackDevices().isEmpty)
        #expect(AudioEngine.captureDevices().contains { $0.contains("Monitor") })
    }
}
