import Foundation
import Synchronization
import Testing

@testable import SoundStation

/// Many threads firing effects and switching music while another renders: nothing crashes, and
/// sources and buffers are counted back to where they started. (`make tsan` runs this under
/// ThreadSanitizer.)
@Suite struct ConcurrencyTests {
    static func load(_ assets: TestAssets) throws {
        for index in 0..<6 {
            try assets.addWAV(
                "fx\(index)",
                Signals.sine(frequency: 300 + 150 * Double(index), seconds: 0.05 + 0.02 * Double(index)),
                extra: "\"maxInstances\": 12, \"coalesceMs\": 0, \"priority\": \(60 + 20 * index)")
        }
        try assets.addWAV("song-a", Signals.stereoTones(left: 220, right: 330, seconds: 1), kind: "music")
        try assets.addOgg(
            "song-b", Signals.stereoTones(left: 262, right: 392, seconds: 2), extra: "\"stream\": true")
    }

    /// Runs `body(index)` on `count` threads of its own (not the shared task pool, which may be
    /// busy with other tests) and returns when all have finished.
    static func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let group = DispatchGroup()
        for index in 0..<count {
            group.enter()
            Thread {
                body(index)
                group.leave()
            }.start()
        }
        group.wait()
    }

    @Test func eightThreadsFireAndSwitchWhileAnotherRenders() throws {
        let assets = try TestAssets()
        try Self.load(assets)
        let engine = try AudioEngine(output: .offline(), maxVoices: 48)
        let system = SoundSystem(engine: engine, catalogue: try assets.catalogue())
        for entry in system.catalogue.entries { try system.bank.load(entry.name) }
        let fired = Mutex(0)
        // Counts, not wall time: eight threads of 1,500 steps each, and a ninth rendering meanwhile.
        Self.onThreads(9) { worker in
            guard worker < 8 else {
                for _ in 0..<400 { _ = try? engine.render(frames: 512) }
                return
            }
            var count = 0
            for step in worker * 1_500..<(worker + 1) * 1_500 {
                if step % 97 == 0 {
                    try? system.music.play(
                        step % 2 == 0 ? "song-a" : "song-b", transition: .crossfade(.seconds(0.05)))
                } else if step % 41 == 0 {
                    try? engine.setVolume(Float(step % 10) / 10, for: .effects)
                } else if let voice = try? system.effects.play("fx\(step % 6)", pan: Float(step % 3) - 1) {
                    count += 1
                    if step % 5 == 0 { engine.stop(voice) }
                }
            }
            fired.withLock { $0 += count }
        }
        #expect(fired.withLock { $0 } > 1_000)
        #expect(engine.sourceCount <= 48)
        system.music.stop()
        _ = try engine.render(frames: 48_000)
        #expect(engine.activeVoiceCount == 0)
        let sources = engine.sourceCount
        for entry in system.catalogue.entries { system.bank.unload(entry.name) }
        #expect(system.bank.loadedNames.isEmpty)
        #expect(engine.bufferCount == 0, "every buffer freed once unloaded and silent")
        #expect(engine.sourceCount == sources, "sources are reused, not made anew")
        #expect(engine.underrunCount == 0)
    }
}

/// `make soak`: minutes of random scene switches and effect storms on a real device, checking that
/// sources, buffers and memory stay flat and streams never underrun. Off unless SOUNDSTATION_SOAK_SECONDS
/// is set.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["SOUNDSTATION_SOAK_SECONDS"] != nil))
struct SoakTests {
    static func residentMegabytes() -> Double {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Double(line.split(separator: " ").dropFirst().first ?? "0").map { $0 / 1024 } ?? 0
    }

    @Test func longRunStaysFlat() async throws {
        let seconds = Double(ProcessInfo.processInfo.environment["SOUNDSTATION_SOAK_SECONDS"] ?? "") ?? 60
        let assets = try TestAssets()
        try ConcurrencyTests.load(assets)
        let output: AudioOutput =
            ProcessInfo.processInfo.environment["PULSE_SERVER"] != nil ? .device() : .silent
        let engine = try AudioEngine(output: output)
        let system = SoundSystem(engine: engine, catalogue: try assets.catalogue())
        var random = SystemRandomNumberGenerator()
        var samples: [(sources: Int, buffers: Int, megabytes: Double)] = []
        let start = ContinuousClock.now
        var round = 0
        while ContinuousClock.now - start < .seconds(seconds) {
            round += 1
            let scene = try await system.bank.preload()
            try system.music.play(
                Bool.random(using: &random) ? "song-a" : "song-b", transition: .crossfade(.seconds(0.2)))
            for _ in 0..<Int.random(in: 20...200, using: &random) {
                try system.effects.play("fx\(Int.random(in: 0..<6, using: &random))")
            }
            try await Task.sleep(for: .milliseconds(Int.random(in: 100...600, using: &random)))
            system.music.stop()
            scene.unload()
            samples.append((engine.sourceCount, engine.bufferCount, Self.residentMegabytes()))
        }
        engine.shutdown()
        let settled = samples.dropFirst(samples.count / 4)
        let memory = settled.map(\.megabytes)
        print(
            "soak: \(round) scenes in \(seconds) s, sources \(settled.map(\.sources).max() ?? 0), RSS \(memory.min() ?? 0)-\(memory.max() ?? 0) MB, underruns \(engine.underrunCount)"
        )
        #expect(settled.map(\.sources).max() ?? 0 <= engine.voiceLimit)
        #expect((memory.max() ?? 0) - (memory.min() ?? 0) < 20, "memory grew during the soak")
        #expect(engine.underrunCount == 0)
    }
}
