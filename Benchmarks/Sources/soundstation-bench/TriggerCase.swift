import Foundation
import SoundStation

/// `trigger` and `trigger-drained`: firing a preloaded one-shot by id through
/// ``EffectStation/play(_:volume:pitch:pan:at:)`` 10,000 times; the sound allows 32 instances and
/// steals the oldest, so voices are recycled.
///
/// A trigger only writes a command into the engine's lock-free ring (4,096 commands); only the
/// driver thread carries the commands out. So the 10,000 triggers go in batches of 2,000, each
/// followed by ``AudioEngine/waitForMixer(timeout:)``, and the ring never fills:
/// - `trigger`: the caller's cost, only the play calls timed (the waits between batches are not).
/// - `trigger-drained`: the whole work, the play calls until the driver thread has carried them out
///   (OpenAL source set-up and `alSourcePlay`, stealing the oldest), per trigger, in wall time: the
///   driver drains while the caller writes, on the other core.
enum TriggerCase {
    static let names = ["trigger", "trigger-drained"]
    static let triggers = 10_000
    static let batch = 2_000

    static func run(_ work: Workspace, runs: Int, cases: CaseFilter) throws {
        let engine: AudioEngine
        let note: String
        do {
            engine = try AudioEngine(output: .device())
            note = "default device \(engine.deviceName), OpenAL mixing on its own thread"
        } catch {
            engine = try AudioEngine(output: .silent)
            note = "no device (\(error.description)); silent output"
        }
        defer { engine.shutdown() }
        let sound = SoundSystem(
            engine: engine, catalogue: try Catalogue(assetsRoot: work.trigger))
        // Loaded on this thread rather than by the parallel preloader: the same buffer, and no task
        // group, which valgrind 3.19 cannot run, so `valgrind --tool=callgrind` can profile this case.
        try sound.bank.load("blip")
        let blip = try sound.bank.id(of: "blip")
        let effects = sound.effects

        /// Fires triggers `first..<first + count`; fails on a refused one (a full ring).
        func fire(_ first: Int, _ count: Int) {
            for i in first..<first + count {
                let pitch = 0.9 + 0.02 * Float(i % 11)
                let pan = Float(i % 21) / 10 - 1
                guard (try? effects.play(blip, volume: 0.8, pitch: pitch, pan: pan)) != nil else {
                    fail("trigger \(i) was refused (the command ring is full)")
                }
            }
        }

        if cases.wants("trigger") {
            let samples = repeated(runs: runs) { _ in
                var elapsed = 0.0
                for first in stride(from: 0, to: triggers, by: batch) {
                    engine.waitForMixer()  // the ring is empty, outside the timed part
                    let start = BenchClock.wall()
                    fire(first, min(batch, triggers - first))
                    elapsed += BenchClock.wall() - start
                }
                engine.waitForMixer()
                return elapsed / Double(triggers) * 1e6
            }
            CaseReport(
                case: "trigger", unit: "us",
                label: "EffectStation.play(SoundID, volume:pitch:pan:), the caller's side (ring write)",
                samples: samples, note: note
            ).emit()
        }
        if cases.wants("trigger-drained") {
            let samples = repeated(runs: runs) { _ in
                engine.waitForMixer()
                let start = BenchClock.wall()
                for first in stride(from: 0, to: triggers, by: batch) {
                    fire(first, min(batch, triggers - first))
                    engine.waitForMixer()  // until the driver has carried the batch out
                }
                return (BenchClock.wall() - start) / Double(triggers) * 1e6
            }
            CaseReport(
                case: "trigger-drained", unit: "us",
                label:
                    "EffectStation.play(SoundID, ...) in batches of 2000, each until the driver has carried it out",
                samples: samples, note: note
            ).emit()
        }
    }
}
