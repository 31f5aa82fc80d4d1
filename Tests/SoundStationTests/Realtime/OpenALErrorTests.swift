import Dispatch
import Foundation
import Synchronization
import Testing

@testable import SoundStation

/// OpenAL Soft keeps one error state per context, not per thread: each AL call and the error read
/// that checks it must not be split by another thread's calls, or one thread swallows (or is blamed
/// for) another's error. A failing upload injected into a parallel preload, while triggers run and
/// sources are queried, is reported every time, and the good uploads never are.
@Suite struct OpenALErrorTests {
    @Test func aFailingUploadIsReportedByItsOwnCallerWhileOthersRun() throws {
        let rate = 48_000
        let engine = try AudioEngine(output: .offline(sampleRate: rate, channels: 2))
        let tone = PCMAudio(
            sampleRate: rate, channels: 1,
            samples: (0..<480).map { Float(sin(Double($0) * 0.05)) * 0.1 })
        // A sample rate of 0: alBufferData answers AL_INVALID_VALUE.
        let broken = PCMAudio(sampleRate: 0, channels: 1, samples: tone.samples)
        let playing = try engine.makeBuffer(tone, name: "tone")
        let rounds = 20_000
        let missedFailures = Atomic<Int>(0)
        let blamedGoodUploads = Atomic<Int>(0)
        let stop = Atomic<Bool>(false)
        func run(in group: DispatchGroup, _ body: @escaping @Sendable () -> Void) {
            group.enter()
            Thread {
                body()
                group.leave()
            }.start()
        }
        let uploaders = DispatchGroup()
        let mixer = DispatchGroup()
        // Triggers, renders and source queries (whose error reads clear the context's state).
        run(in: mixer) {
            while !stop.load(ordering: .relaxed) {
                _ = try? engine.play(playing, options: PlayOptions(volume: 0.1))
                _ = try? engine.render(frames: 256)
                _ = engine.activeVoiceCount
            }
        }
        run(in: uploaders) {
            for _ in 0..<rounds {
                do {
                    _ = try OpenALBuffer(device: engine.device, audio: broken)
                    missedFailures.add(1, ordering: .relaxed)
                } catch {}
            }
        }
        run(in: uploaders) {
            for _ in 0..<rounds {
                do { _ = try OpenALBuffer(device: engine.device, audio: tone) } catch {
                    blamedGoodUploads.add(1, ordering: .relaxed)
                }
            }
        }
        // A source whose state is read over and over: each read clears the context's error.
        let source = try OpenALSource(device: engine.device)
        run(in: uploaders) {
            for _ in 0..<rounds * 4 { _ = source.state }
        }
        uploaders.wait()
        stop.store(true, ordering: .relaxed)
        mixer.wait()
        let missed = missedFailures.load(ordering: .relaxed)
        let blamed = blamedGoodUploads.load(ordering: .relaxed)
        #expect(missed == 0, "\(missed) failing uploads were reported as done")
        #expect(blamed == 0, "\(blamed) good uploads were blamed for another thread's error")
    }
}
