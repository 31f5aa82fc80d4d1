import Testing

@testable import SoundStation

@Suite struct OfflineRenderTests {
    @Test func effectStartsAtItsFrame() throws {
        let engine = try AudioEngine(output: .offline(sampleRate: 48_000, channels: 2))
        let tone = try engine.makeBuffer(
            Signals.sine(frequency: 440, seconds: 0.25, phase: .pi / 2), name: "tone")
        for time in [0.0, 0.1, 0.123_456, 0.5] {
            let start = engine.time
            engine.play(tone, at: start + time)
            let mix = try engine.render(frames: 48_000)
            let expected = Int((time * 48_000).rounded())
            let onset = AudioAnalysis.onset(mix, threshold: 1e-6)
            print("time", time, "onset", onset as Any, "expected", expected, "peak", AudioAnalysis.peak(mix))
            #expect(onset == expected)
        }
    }
}
