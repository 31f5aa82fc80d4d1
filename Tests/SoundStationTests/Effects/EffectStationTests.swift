import SoundStationTesting
import Testing

@testable import SoundStation

@Suite struct EffectStationTests {
    static let frequencies: [Double] = [180, 310, 470, 650, 870, 1_130, 1_450, 1_900]

    @Test func eightEffectsAtOnceAreAllInTheMix() async throws {
        let assets = try TestAssets()
        var sources: [PCMAudio] = []
        for (index, frequency) in Self.frequencies.enumerated() {
            let source = Signals.sine(frequency: frequency, seconds: 0.5, amplitude: 0.1)
            sources.append(source)
            try assets.addWAV("fx\(index)", source)
        }
        let system = try await assets.system()
        for index in sources.indices { try system.effects.play("fx\(index)", at: .seconds(0.1)) }
        let mix = AudioAnalysis.channel(try system.engine.render(frames: 48_000), 0)
        let window = 4_800 + 1_000..<4_800 + 20_000
        let signals = sources.map { Array($0.samples[1_000..<20_000]) }
        let weights = LeastSquares.weights(of: signals, in: Array(mix.samples[window]))
        // Each effect is there at the centre pan gain (-4.5 dB, 0.596), none missing, none doubled.
        for (index, weight) in weights.enumerated() {
            #expect(abs(weight - 0.596) < 0.02, "effect \(index) found at weight \(weight)")
        }
    }

    @Test func poolExhaustionStealsByPriority() async throws {
        let assets = try TestAssets()
        try assets.addWAV(
            "low", Signals.sine(frequency: 200, seconds: 2),
            extra: "\"priority\": 10, \"maxInstances\": 16, \"coalesceMs\": 0")
        try assets.addWAV("high", Signals.sine(frequency: 900, seconds: 2), extra: "\"priority\": 200")
        try assets.addWAV("lowest", Signals.sine(frequency: 500, seconds: 2), extra: "\"priority\": 1")
        let system = try await assets.system(maxVoices: 4)
        let events = system.engine.events()
        let lows = try (0..<4).map { _ in try #require(try system.effects.play("low")) }
        let high = try #require(try system.effects.play("high"))
        _ = try system.engine.render(frames: 0)  // queries answer as of the last render
        #expect(!system.engine.isActive(lows[0]), "the oldest low-priority voice is stolen")
        #expect(lows[1...].allSatisfy { system.engine.isActive($0) })
        #expect(system.engine.isActive(high))
        let lowest = try #require(try system.effects.play("lowest"))
        _ = try system.engine.render(frames: 0)
        #expect(!system.engine.isActive(lowest), "nothing of lower priority may be stolen for it")
        #expect(system.engine.sourceCount == 4)
        let seen = try await events.collect(within: .seconds(10)) { seen in
            seen.contains { if case .finished(_, "low", .stolen, _) = $0 { true } else { false } }
                && seen.contains { if case .refused(_, "lowest", _) = $0 { true } else { false } }
        }
        #expect(seen.count { if case .finished(_, "low", .stolen, _) = $0 { true } else { false } } == 1)
        let mix = try system.engine.render(frames: 9_600)
        #expect(AudioAnalysis.rms(mix) > 0.1)
    }

    @Test func maxInstancesHoldsWithEachStealPolicy() async throws {
        let assets = try TestAssets()
        let tone = Signals.sine(frequency: 440, seconds: 1)
        try assets.addWAV(
            "oldest", tone, extra: "\"maxInstances\": 3, \"steal\": \"oldest\", \"coalesceMs\": 0")
        try assets.addWAV(
            "refuse", tone, extra: "\"maxInstances\": 2, \"steal\": \"refuse\", \"coalesceMs\": 0")
        try assets.addWAV(
            "quietest", tone, extra: "\"maxInstances\": 2, \"steal\": \"quietest\", \"coalesceMs\": 0")
        let system = try await assets.system()
        let effects = system.effects
        let oldest = try (0..<5).map { _ in try effects.play("oldest") }
        _ = try system.engine.render(frames: 0)  // queries answer as of the last render
        #expect(oldest.map { $0.map(system.engine.isActive) } == [false, false, true, true, true])
        let refused = try (0..<4).map { _ in try effects.play("refuse") }
        _ = try system.engine.render(frames: 0)
        #expect(refused.map { $0.map(system.engine.isActive) } == [true, true, false, false])
        let loud = try effects.play("quietest", volume: 1)
        let quiet = try effects.play("quietest", volume: 0.2)
        let third = try effects.play("quietest", volume: 0.5)
        _ = try system.engine.render(frames: 0)
        #expect([loud, quiet, third].map { $0.map(system.engine.isActive) } == [true, false, true])
        #expect(system.engine.activeVoiceCount == 3 + 2 + 2)
    }

    @Test func aRepeatWithinTheCoalesceWindowIsOneSound() async throws {
        let assets = try TestAssets()
        try assets.addWAV("coin", Signals.sine(frequency: 1_000, seconds: 0.2), extra: "\"coalesceMs\": 10")
        let system = try await assets.system()
        let first = try system.effects.play("coin", at: .seconds(0.1))
        let repeated = try system.effects.play("coin", at: .seconds(0.105))
        let later = try system.effects.play("coin", at: .seconds(0.2))
        #expect(first != nil && repeated != nil && later != nil)
        _ = try system.engine.render(frames: 0)  // queries answer as of the last render
        #expect(system.engine.activeVoiceCount == 2, "the repeat is folded into the first start")
        // The repeat's handle names the voice it was folded into.
        system.engine.stop(try #require(repeated))
        _ = try system.engine.render(frames: 0)
        #expect(!system.engine.isActive(try #require(first)))
        #expect(system.engine.isActive(try #require(later)))
    }

    @Test func handlesStopAndChangeTheirVoiceButStaleOnesDoNothing() async throws {
        let assets = try TestAssets()
        try assets.addWAV("hum", Signals.sine(frequency: 300, seconds: 0.5), extra: "\"maxInstances\": 1")
        let system = try await assets.system()
        let voice = try #require(try system.effects.play("hum"))
        _ = try system.engine.render(frames: 4_800)
        try system.engine.setVolume(0.5, for: voice)
        let half = try system.engine.render(frames: 4_800)
        #expect(
            abs(
                AudioAnalysis.decibels(
                    AudioAnalysis.rms(half, frames: 1_000..<4_800) / (0.5 / 2.squareRoot())) - (-4.5 - 6.02))
                < 0.3)
        system.engine.stop(voice)
        #expect(AudioAnalysis.peak(try system.engine.render(frames: 4_800)) == 0)
        let next = try #require(try system.effects.play("hum"))
        #expect(next.description != voice.description)
        system.engine.stop(voice)
        #expect(system.engine.isActive(next))
    }

    @Test func singleEffectStationPlaysItsOneSound() async throws {
        let assets = try TestAssets()
        try assets.addWAV("click", Signals.noise(seconds: 0.05))
        try assets.addWAV("other", Signals.noise(seconds: 0.05, seed: 4))
        let system = SoundSystem(
            engine: try AudioEngine(output: .offline()), catalogue: try assets.catalogue())
        let menu = EffectStation(bank: system.bank, sounds: ["click"])
        try await menu.preload()
        #expect(system.bank.loadedNames == ["click"])
        #expect(try menu.play() != nil)
        #expect(throws: SoundLoadError.self) { try menu.play("other") }
        #expect(AudioAnalysis.rms(try system.engine.render(frames: 2_400)) > 0.05)
        menu.unload()
        #expect(system.bank.loadedNames.isEmpty)
    }

    @Test func triggersFromManyThreadsNeverLeakVoices() async throws {
        let assets = try TestAssets()
        try assets.addWAV(
            "tick", Signals.sine(frequency: 2_000, seconds: 0.01),
            extra: "\"maxInstances\": 64, \"coalesceMs\": 0")
        let system = try await assets.system()
        let fired = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask { (0..<200).count { _ in (try? system.effects.play("tick")) != nil } }
            }
            group.addTask {
                for _ in 0..<50 { _ = try? system.engine.render(frames: 480) }
                return 0
            }
            return await group.reduce(0, +)
        }
        _ = try system.engine.render(frames: 4_800)
        #expect(fired > 0)
        #expect(system.engine.activeVoiceCount == 0)
        #expect(system.engine.sourceCount <= 64)
    }
}
