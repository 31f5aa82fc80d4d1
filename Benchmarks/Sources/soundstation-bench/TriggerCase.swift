import Foundation
import SoundStation

/// `trigger`: the cost of firing a preloaded one-shot through ``EffectStation/play(_:volume:pitch:pan:at:)``
/// 10,000 times; the sound allows 32 instances and steals the oldest, so voices are recycled.
enum TriggerCase {
    static let triggers = 10_000

    static func run(_ work: Workspace, runs: Int) throws {
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
        let sound = SoundSystem(engine: engine, catalogue: try Catalogue(assetsRoot: work.trigger))
        // Loaded on this thread rather than by the parallel preloader: the same buffer, and no task
        // group, which valgrind 3.19 cannot run, so `valgrind --tool=callgrind` can profile this case.
        try sound.bank.load("blip")
        let effects = sound.effects
        let samples = try repeated(runs: runs) { _ in
            let start = BenchClock.wall()
            for i in 0..<triggers {
                let pitch = 0.9 + 0.02 * Float(i % 11)
                let pan = Float(i % 21) / 10 - 1
                guard try effects.play("blip", volume: 0.8, pitch: pitch, pan: pan) != nil else {
                    fail("trigger \(i) was refused")
                }
            }
            return (BenchClock.wall() - start) / Double(triggers) * 1e6
        }
        CaseReport(
            case: "trigger", unit: "us", label: "EffectStation.play(name, volume:pitch:pan:)",
            samples: samples,
            note: note
        ).emit()
    }
}
