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

    @Test("a wait for an event returns the match, and fails instead of hanging when none comes")
    func eventDeadline() async throws {
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        continuation.yield(1)
        continuation.yield(4)
        continuation.yield(9)
        #expect(try await stream.nextEvent(within: .seconds(10)) { $0 > 3 } == 4)
        let started = ContinuousClock.now
        await #expect(throws: EventDeadlineExceeded.self) {
            try await stream.nextEvent(within: .milliseconds(200)) { $0 > 100 }
        }
        #expect(ContinuousClock.now - started < .seconds(5), "the deadline ended the wait")

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
}
