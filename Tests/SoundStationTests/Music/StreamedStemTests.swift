import SoundStationTesting
import Testing

@testable import SoundStation

/// A layered track whose stems stream beside it (nothing preloaded) stays sample-locked: the same
/// noise as the track's left channel and as its stem's right, rendered for ten minutes offline, is the
/// same on both sides to the sample, and their cross-correlation peaks at lag 0.
@Suite struct StreamedStemTests {
    @Test func streamedStemsStayOnTheTracksFrameForTenMinutes() async throws {
        let assets = try TestAssets()
        let noise = Signals.noise(seconds: 2, amplitude: 0.25, seed: 5).samples
        func stereo(left: Bool) -> PCMAudio {
            PCMAudio(
                sampleRate: 48_000, channels: 2,
                samples: noise.flatMap { left ? [$0, 0] : [0, $0] })
        }
        try WAVWriter.write(stereo(left: false), toFileAt: "\(assets.root)/right.wav", format: .float32)
        try assets.addWAV(
            "layered", stereo(left: true), kind: "music",
            extra: "\"stream\": true, \"bpm\": 120, \"stems\": [{\"path\": \"right.wav\"}]")
        let system = try await assets.system()
        // Streamed: no buffer for the track, none for its stem.
        #expect(system.bank.lookup("layered")?.buffer == nil && system.bank.stems(of: "layered").isEmpty)
        try system.music.play("layered")
        // Ten minutes in blocks of ten seconds (300 loops of the 2 s track), each compared side to side.
        var largest: Float = 0
        var last = PCMAudio(sampleRate: 48_000, channels: 2, samples: [])
        for _ in 0..<60 {
            last = try system.engine.render(frames: 480_000)
            last.samples.withUnsafeBufferPointer { samples in
                for frame in stride(from: 0, to: samples.count, by: 2) {
                    largest = max(largest, abs(samples[frame] - samples[frame + 1]))
                }
            }
        }
        #expect(system.engine.activeVoiceCount == 2)
        #expect(largest < 1e-6, "the stem drifted from the track: sides differ by up to \(largest)")
        // The last 0.1 s: the cross-correlation of the two sides peaks at lag 0.
        let left = (475_000..<479_800).map { Double(last.samples[$0 * 2]) }
        let right = (0..<480_000).map { Double(last.samples[$0 * 2 + 1]) }
        let scores = (-16...16).map { lag in
            (lag, zip(left.indices, left).reduce(0.0) { $0 + $1.1 * right[475_000 + $1.0 + lag] })
        }
        #expect(scores.max { $0.1 < $1.1 }?.0 == 0, "peak at \(scores.max { $0.1 < $1.1 }?.0 ?? -99)")
        #expect(AudioAnalysis.rms(last, channel: 0) > 0.1)
    }
}
