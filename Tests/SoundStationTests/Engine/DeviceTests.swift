import Foundation
import SoundStationTesting
import Testing

@testable import SoundStation

/// The real device path: OpenAL Soft plays through PulseAudio's null sink and the sink's monitor is
/// recorded back. Serialized: they share one sink.
@Suite(
    .serialized, .enabled(if: PulseServer.isAvailable, "needs the private PulseAudio server of `make test`"))
struct DeviceTests {
    @Test func playedToneComesOutOfTheDefaultDevice() async throws {
        let engine = try AudioEngine(output: .device())
        #expect(engine.voiceLimit >= 64)
        let tone = try engine.makeBuffer(
            Signals.sine(frequency: 1_000, seconds: 2, sampleRate: 48_000, amplitude: 0.5), name: "tone")
        let capture = try CaptureDevice(sampleRate: 16_000, channels: 1)
        capture.start()
        try engine.play(tone)
        var recorded: [Float] = []
        let deadline = ContinuousClock.now + .seconds(5)
        while recorded.count < 16_000 * 3 / 2, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
            recorded += capture.read()
        }
        capture.stop()
        let audio = PCMAudio(sampleRate: 16_000, channels: 1, samples: recorded)
        let onset = try #require(
            AudioAnalysis.onset(audio, threshold: 0.05), "the tone never reached the monitor")
        let window = onset + 1_600..<min(onset + 9_600, audio.frameCount)
        #expect(window.count > 4_000)
        let frequency = AudioAnalysis.zeroCrossingFrequency(audio, frames: window)
        #expect(abs(frequency - 1_000) < 20, "heard \(frequency) Hz")
        #expect(AudioAnalysis.rms(audio, frames: window) > 0.1)
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

    @Test func deviceListsNameTheNullSinkAndItsMonitor() {
        #expect(!AudioEngine.playbackDevices().isEmpty)
        #expect(AudioEngine.captureDevices().contains { $0.contains("Monitor") })
    }
}
