import Foundation
import SoundStationTesting
import Testing

@testable import SoundStation

@Suite("SoundStationTesting")
struct SoundStationTestingTests {
    @Test("levels of a known sine: RMS, peak, energy, decibels, frequency")
    func levels() {
        let sine = Signals.sine(frequency: 1_000, seconds: 0.1, amplitude: 0.5, channels: 2)
        #expect(abs(AudioAnalysis.rms(sine) - 0.5 / 2.squareRoot()) < 1e-4)
        #expect(abs(AudioAnalysis.peak(sine, channel: 1) - 0.5) < 1e-3)
        #expect(abs(AudioAnalysis.energy(sine, channel: 0) - 0.125 * 4_800) < 0.5)
        #expect(abs(AudioAnalysis.decibels(AudioAnalysis.rms(sine)) - (-9.03)) < 0.01)
        #expect(AudioAnalysis.decibels(0) == -140)
        #expect(abs(AudioAnalysis.zeroCrossingFrequency(sine) - 1_000) <= 10)
        #expect(abs(AudioAnalysis.amplitude(of: 1_000, in: sine, frames: 0..<4_800) - 0.5) < 1e-3)
        #expect(AudioAnalysis.amplitude(of: 3_000, in: sine, frames: 0..<4_800) < 1e-3)
        #expect(AudioAnalysis.rms(PCMAudio(sampleRate: 48_000, channels: 2, samples: [])) == 0)
    }

    @Test("onset finds the first frame above the threshold, and nothing in silence")
    func onset() {
        var samples = [Float](repeating: 0, count: 2_000)
        samples[1_235] = 0.01
        let audio = PCMAudio(sampleRate: 48_000, channels: 2, samples: samples)
        #expect(AudioAnalysis.onset(audio) == 617)
        #expect(AudioAnalysis.onset(audio, threshold: 0.1) == nil)
        #expect(AudioAnalysis.onset(audio, from: 618) == nil)
    }

    @Test("least squares recovers the weights of known signals in a mix")
    func leastSquares() {
        let a = Signals.sine(frequency: 300, seconds: 0.05).samples
        let b = Signals.sine(frequency: 700, seconds: 0.05).samples
        let mix = zip(a, b).map { 0.25 * $0 - 0.6 * $1 }
        let weights = LeastSquares.weights(of: [a, b], in: mix)
        #expect(abs(weights[0] - 0.25) < 1e-4 && abs(weights[1] + 0.6) < 1e-4)
        let fit = LeastSquares.fit([a.map(Double.init)], to: mix.map(Double.init))
        #expect(fit.explained < 0.5, "one signal alone cannot explain the mix")
    }

    // A hang fails by the time limit. The wait's own time is not measured: the task comes back from
    // it when a thread of the cooperative pool is free, which other suites' synchronous tests may hold
    // for seconds (run 30, beside two busy loops: 6.6 s for a 200 ms deadline).
    @Test(
        "a wait for an event returns the match, and fails instead of hanging when none comes",
        .timeLimit(.minutes(1)))
    func eventDeadline() async throws {
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        continuation.yield(1)
        continuation.yield(4)
        continuation.yield(9)
        #expect(try await stream.nextEvent(within: .seconds(10)) { $0 > 3 } == 4)
        // Nothing more comes and the stream stays open: only the deadline can end this wait.
        await #expect(throws: EventDeadlineExceeded.self) {
            try await stream.nextEvent(within: .milliseconds(200)) { $0 > 100 }
        }

        let (finishing, ending) = AsyncStream.makeStream(of: Int.self)
        ending.yield(2)
        ending.finish()
        do {
            _ = try await finishing.collect(within: .seconds(10)) { $0.count == 2 }
            Issue.record("a finished stream cannot deliver a second event")
        } catch {
            #expect(error.streamFinished)
            #expect(error.received == ["2"])
            #expect(error.description == "the event stream finished; received 1 event: 2")
        }
    }

    @Test("a golden file is recorded once, then matched, and a change names its first frame")
    func golden() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "golden-\(UInt64.random(in: 0...UInt64.max))")
        defer { try? FileManager.default.removeItem(at: folder) }
        let golden = GoldenAudio(path: folder.appendingPathComponent("scene.wav").path)
        let render = Signals.sine(frequency: 440, seconds: 0.1, channels: 2)
        #expect(throws: GoldenAudioError.recorded(path: golden.path)) { try golden.check(render) }
        #expect(try golden.check(render).largest == 0)
        var changed = render
        changed.samples[2_000 * 2 + 1] += 0.001  // -60 dBFS at frame 2,000, right channel
        let error = #expect(throws: GoldenAudioError.self) { try golden.check(changed) }
        guard case .differs(_, let frame, let channel, let difference, _) = error else {
            Issue.record("expected a difference, got \(String(describing: error))")
            return
        }
        #expect(frame == 2_000 && channel == 1 && abs(difference - -60) < 0.1)
        #expect(try GoldenAudio(path: golden.path, tolerance: -50).check(changed).largestDecibels < -59)
        let shorter = PCMAudio(sampleRate: 48_000, channels: 2, samples: Array(render.samples.prefix(100)))
        #expect(throws: GoldenAudioError.self) { try golden.check(shorter) }
    }
}
