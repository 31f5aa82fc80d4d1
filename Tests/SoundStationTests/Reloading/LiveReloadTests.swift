import Foundation
import Glibc
import SoundStationTesting
import Testing

@testable import SoundStation

/// Live reload on real renders: the test edits files the way an editor saves them (a new file
/// renamed over the old one) while an offline engine plays, waits for the watch's report, and checks
/// the samples of the starts before and after the edit.
@Suite struct LiveReloadTests {
    static let rate = 48_000
    /// How long a test waits for a report before it fails.
    static let deadline = Duration.seconds(20)

    /// The original sound and its edited version: different tones, so a fit tells them apart.
    let original = Signals.sine(frequency: 440, seconds: 0.5, amplitude: 0.3)
    let edited = Signals.sine(frequency: 660, seconds: 0.5, amplitude: 0.3)

    /// Writes `audio` next to `name` and renames it over `name`, as editors save.
    private func save(_ audio: PCMAudio, as name: String, in assets: TestAssets) throws {
        let temporary = "\(assets.root)/.\(name).tmp"
        try WAVWriter.write(audio, toFileAt: temporary, format: .float32)
        try Self.replace("\(assets.root)/\(name)", with: temporary)
    }

    /// Writes `bytes` next to `name` and renames it over `name`.
    private func save(bytes: [UInt8], as name: String, in assets: TestAssets) throws {
        let temporary = "\(assets.root)/.\(name).tmp"
        try Data(bytes).write(to: URL(fileURLWithPath: temporary))
        try Self.replace("\(assets.root)/\(name)", with: temporary)
    }

    private static func replace(_ path: String, with temporary: String) throws {
        guard rename(temporary, path) == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
    }

    /// `audio` (mono) placed at `offset` frames in a window of `length`, from its frame `from`.
    private func placed(_ audio: PCMAudio, at offset: Int, from: Int = 0, length: Int) -> [Double] {
        var out = [Double](repeating: 0, count: length)
        for index in 0..<length where index >= offset {
            let source = from + index - offset
            if source < audio.frameCount { out[index] = Double(audio.samples[source]) }
        }
        return out
    }

    private func reloaded(_ name: String) -> @Sendable (SoundEvent) -> Bool {
        { event in if case .reloaded(name, _, _) = event { true } else { false } }
    }

    /// An offline sound system over `assets` with every sound preloaded, watched, and a stream of its
    /// events from before any edit.
    private struct Watched {
        let system: SoundSystem
        /// Releasing it stops the watch, so each test cancels it in a `defer`, which also keeps it.
        let watch: AssetWatch
        let events: AsyncStream<SoundEvent>

        init(_ assets: TestAssets) async throws {
            system = try await assets.system()
            watch = try system.bank.watch()
            events = system.engine.events()
        }
    }

    @Test(
        "an edited file plays at the next start under the same id; a voice started before finishes as it was")
    func editedFilePlaysAtNextStart() async throws {
        let assets = try TestAssets()
        try assets.addWAV("tone", original)
        let watched = try await Watched(assets)
        defer { watched.watch.cancel() }  // and it lives until then
        let (system, events) = (watched.system, watched.events)
        let id = try system.bank.id(of: "tone")

        try system.effects.play("tone", at: .zero)
        let before = try system.engine.render(frames: 12_000)
        try save(edited, as: "tone.wav", in: assets)
        let report = try await events.nextEvent(within: Self.deadline, where: reloaded("tone"))
        #expect(report == .reloaded(sound: "tone", file: "tone.wav", warnings: []))
        #expect(try system.bank.id(of: "tone") == id)

        try system.effects.play("tone", at: system.engine.time)
        let after = try system.engine.render(frames: 24_000)
        let left = AudioAnalysis.channel(after, 0).samples.map(Double.init)
        // The render after the edit holds the first voice's last quarter second of the old tone and a
        // whole new start of the edited one, and nothing of the old tone starting again.
        let fit = LeastSquares.fit(
            [
                placed(original, at: 0, from: 12_000, length: 24_000),
                placed(edited, at: 0, length: 24_000),
                placed(original, at: 0, length: 24_000),
            ], to: left)
        // The mono sound's gain on the left (about -4.5 dB), from the render before the edit.
        let beforeLeft = AudioAnalysis.channel(before, 0).samples.map(Double.init)
        let gain = LeastSquares.fit([placed(original, at: 0, length: 12_000)], to: beforeLeft).weights[0]
        #expect(gain > 0.5)
        #expect(abs(fit.weights[0] - gain) < 0.001 * gain, "old voice: \(fit.weights)")
        #expect(abs(fit.weights[1] - gain) < 0.001 * gain, "new start: \(fit.weights)")
        #expect(abs(fit.weights[2]) < 0.001 * gain, "old tone restarted: \(fit.weights)")
        #expect(fit.explained > 0.99999)
    }

    @Test("a broken edit is reported naming the file, and the old sound keeps playing")
    func brokenEditKeepsTheOldSound() async throws {
        let assets = try TestAssets()
        try assets.addWAV("tone", original)
        let watched = try await Watched(assets)
        defer { watched.watch.cancel() }  // and it lives until then
        let (system, events) = (watched.system, watched.events)

        try save(bytes: Array("RIFF\u{10}\0\0\0WAVEjunk".utf8), as: "tone.wav", in: assets)
        let report = try await events.nextEvent(within: Self.deadline) { event in
            if case .reloadFailed = event { true } else { false }
        }
        guard case .reloadFailed(let file, let error) = report else { return }
        #expect(file == "tone.wav")
        #expect(error.description.contains("tone.wav") && error.description.contains("\"tone\""))

        try system.effects.play("tone", at: system.engine.time)
        let mix = try system.engine.render(frames: 24_000)
        let left = AudioAnalysis.channel(mix, 0).samples.map(Double.init)
        let fit = LeastSquares.fit([placed(original, at: 0, length: 24_000)], to: left)
        #expect(fit.weights[0] > 0.5 && fit.explained > 0.99999, "\(fit)")
    }

    @Test("an edited catalogue changes a loaded sound's volume, reports added and removed entries")
    func catalogueEditTakesEffect() async throws {
        let assets = try TestAssets()
        try assets.addWAV("tone", original)
        try assets.addWAV("other", edited)
        let watched = try await Watched(assets)
        defer { watched.watch.cancel() }  // and it lives until then
        let (system, events) = (watched.system, watched.events)

        try system.effects.play("tone", at: .zero)
        let loud = AudioAnalysis.rms(try system.engine.render(frames: 24_000))
        try WAVWriter.write(edited, toFileAt: "\(assets.root)/new.wav", format: .float32)
        let manifest = """
            { "sounds": [
              { "name": "tone", "path": "tone.wav", "kind": "effect", "volume": 0.25 },
              { "name": "added", "path": "new.wav", "kind": "effect" }
            ] }
            """
        try save(bytes: Array(manifest.utf8), as: "catalogue.json", in: assets)
        let seen = try await events.collect(within: Self.deadline) { seen in
            seen.contains { if case .reloaded("tone", _, _) = $0 { true } else { false } }
        }
        #expect(seen.contains(.catalogueReloaded(added: ["added"], removed: ["other"])))
        #expect(system.bank.catalogue["added"] != nil)
        // "other" is no longer in the catalogue, but the loaded sound plays on until unloaded.
        try system.effects.play("other", at: system.engine.time)
        #expect(AudioAnalysis.rms(try system.engine.render(frames: 24_000)) > 0.1)

        try system.effects.play("tone", at: system.engine.time)
        let quiet = AudioAnalysis.rms(try system.engine.render(frames: 24_000))
        #expect(abs(quiet / loud - 0.25) < 0.001, "\(quiet) / \(loud)")

        // A new entry loads and plays after the edit.
        try system.bank.load("added")
        try system.effects.play("added", at: system.engine.time)
        #expect(AudioAnalysis.rms(try system.engine.render(frames: 24_000)) > 0.1)

        // A manifest that does not parse changes nothing.
        try save(bytes: Array("{ \"sounds\": [ { \"name\": ".utf8), as: "catalogue.json", in: assets)
        let failure = try await events.nextEvent(within: Self.deadline) { event in
            if case .reloadFailed("catalogue.json", _) = event { true } else { false }
        }
        if case .reloadFailed(_, let error) = failure {
            #expect(error.description.contains("catalogue.json"))
        }
        #expect(system.bank.catalogue["added"] != nil)
        try system.effects.play("tone", at: system.engine.time)
        let still = AudioAnalysis.rms(try system.engine.render(frames: 24_000))
        #expect(abs(still / loud - 0.25) < 0.001)
    }

    @Test("a streamed track plays its edited file at its next start")
    func streamedMusicPicksUpTheNewFile() async throws {
        let assets = try TestAssets()
        try assets.addWAV("song", original, kind: "music", extra: "\"stream\": true, \"loop\": false")
        let watched = try await Watched(assets)
        defer { watched.watch.cancel() }  // and it lives until then
        let (system, events) = (watched.system, watched.events)
        #expect(system.bank.isStreamed("song"))

        try save(edited, as: "song.wav", in: assets)
        _ = try await events.nextEvent(within: Self.deadline, where: reloaded("song"))
        try system.music.play("song", at: system.engine.time)
        let mix = try system.engine.render(frames: 24_000)
        let left = AudioAnalysis.channel(mix, 0).samples.map(Double.init)
        let fit = LeastSquares.fit(
            [placed(edited, at: 0, length: 24_000), placed(original, at: 0, length: 24_000)], to: left)
        #expect(fit.weights[0] > 0.5 && abs(fit.weights[1]) < 0.001 && fit.explained > 0.99999, "\(fit)")
    }

    @Test("cancelling stops the watch: later edits are not loaded")
    func cancelledWatchLoadsNothing() async throws {
        let assets = try TestAssets()
        try assets.addWAV("tone", original)
        let system = try await assets.system()
        let watch = try system.bank.watch()
        #expect(watch.folders == [CatalogueFiles.realPath(assets.root)])
        watch.cancel()
        watch.cancel()
        let buffer = system.bank.buffer(named: "tone")
        try save(edited, as: "tone.wav", in: assets)
        try await Task.sleep(for: .milliseconds(400))
        #expect(system.bank.buffer(named: "tone") === buffer)
    }
}
