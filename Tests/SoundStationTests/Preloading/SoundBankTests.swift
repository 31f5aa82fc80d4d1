import Foundation
import Synchronization
import Testing

@testable import SoundStation

@Suite struct SoundBankTests {
    private func bank(_ assets: TestAssets) throws -> SoundBank {
        SoundBank(engine: try AudioEngine(output: .offline()), catalogue: try assets.catalogue())
    }

    @Test func usersShareOneBufferUntilTheLastUnloads() throws {
        let assets = try TestAssets()
        try assets.addWAV("beep", Signals.sine(frequency: 800, seconds: 0.1))
        let bank = try bank(assets)
        try bank.load("beep")
        let first = try #require(bank.buffer(named: "beep"))
        try bank.load("beep")
        #expect(bank.buffer(named: "beep") === first)
        #expect(bank.users(of: "beep") == 2)
        bank.unload("beep")
        #expect(bank.buffer(named: "beep") === first)
        bank.unload("beep")
        #expect(bank.buffer(named: "beep") == nil)
        #expect(bank.loadedBytes == 0)
    }

    @Test func preloadLoadsEverythingAndReportsProgress() async throws {
        let assets = try TestAssets()
        for index in 0..<6 {
            try assets.addWAV("fx\(index)", Signals.sine(frequency: 300 + 100 * Double(index), seconds: 0.2))
        }
        try assets.addOgg("song", Signals.stereoTones(left: 200, right: 300, seconds: 3))
        let bank = try bank(assets)
        let reports = Mutex<[PreloadProgress]>([])
        let loaded = try await bank.preload { progress in reports.withLock { $0.append(progress) } }
        #expect(Set(loaded.names) == Set((0..<6).map { "fx\($0)" } + ["song"]))
        #expect(loaded.failures.isEmpty)
        let seen = reports.withLock { $0 }
        #expect(seen.map(\.completed) == Array(1...7))
        #expect(seen.allSatisfy { $0.total == 7 })
        #expect(seen.last?.fraction == 1)
        #expect(bank.buffer(named: "song")?.frameCount == 144_000)
        loaded.unload()
        loaded.unload()
        #expect(bank.loadedNames.isEmpty)
    }

    @Test func twoScenesShareASoundAndFreeItWhenBothLeave() async throws {
        let assets = try TestAssets()
        try assets.addWAV("shared", Signals.noise(seconds: 0.1))
        try assets.addWAV("menu-only", Signals.noise(seconds: 0.1, seed: 2))
        let bank = try bank(assets)
        let menu = try await bank.preload(["shared", "menu-only"])
        let game = try await bank.preload(["shared"])
        #expect(bank.users(of: "shared") == 2)
        menu.unload()
        #expect(bank.loadedNames == ["shared"])
        game.unload()
        #expect(bank.loadedNames.isEmpty)
    }

    @Test func aBadFileCostsOnlyItsOwnSound() async throws {
        let assets = try TestAssets()
        try assets.addWAV("good", Signals.noise(seconds: 0.1))
        try Data("RIFF....WAVEjunk".utf8).write(to: URL(fileURLWithPath: "\(assets.root)/bad.wav"))
        assets.add("bad", file: "bad.wav", kind: "effect")
        let bank = try bank(assets)
        let loaded = try await bank.preload()
        #expect(loaded.names == ["good"])
        let failure = try #require(loaded.failures.first)
        #expect(failure.description.contains("\"bad\"") && failure.description.contains("bad.wav"))
        #expect(throws: SoundLoadError.self) { try loaded.throwIfFailed() }
        #expect(bank.buffer(named: "good") != nil)
    }

    @Test func cancellingAPreloadReleasesWhatItLoaded() async throws {
        let assets = try TestAssets()
        for index in 0..<12 {
            try assets.addWAV("n\(index)", Signals.noise(seconds: 1, seed: UInt64(index + 1)))
        }
        let bank = try bank(assets)
        let (progress, task) = bank.preloadWithProgress()
        task.cancel()
        var count = 0
        for await _ in progress { count += 1 }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(count < 12)
        #expect(bank.loadedNames.isEmpty)
        #expect(bank.users(of: "n0") == 0)
    }

    @Test func unknownAndUnloadedNamesSayWhatToDo() throws {
        let assets = try TestAssets()
        try assets.addWAV("reward", Signals.noise(seconds: 0.1))
        let system = SoundSystem(
            engine: try AudioEngine(output: .offline()), catalogue: try assets.catalogue())
        #expect(throws: SoundLoadError.notLoaded(name: "reward")) { try system.effects.play("reward") }
        do {
            try system.effects.play("rewrd")
            Issue.record("an unknown name played")
        } catch {
            #expect(error.description.contains("rewrd") && error.description.contains("reward"))
        }
    }
}
