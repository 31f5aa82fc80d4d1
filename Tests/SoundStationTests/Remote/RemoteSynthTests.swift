import Foundation
import SoundStationTesting
import Testing

@testable import SoundStation
@testable import SoundStationPlayer

/// Synthesised sounds over a remote session: the parameters travel (no file), the player renders them,
/// and its mix holds the server's samples exactly, shifted by the delay.
@Suite struct RemoteSynthTests {
    @Test func thePlayerRendersTheGamesBytesFromTheParameters() async throws {
        let assets = try TestAssets()  // a temporary folder, removed at the end
        let root = assets.root
        let manifest =
            #"{"sounds": [{"name": "coin", "kind": "effect", "synth": {"preset": "coin", "seed": 7}}]}"#
        try manifest.write(toFile: root + "/catalogue.json", atomically: true, encoding: .utf8)
        let engine = try AudioEngine(output: .offline(sampleRate: 48_000, channels: 2))
        let server = SoundSystem(engine: engine, catalogue: try Catalogue(assetsRoot: root), pcmCache: nil)
        try await server.bank.preload().throwIfFailed()
        let laser = SynthSound.preset(.laser, seed: 3, variation: 2)
        _ = try server.synth("laser", laser)
        let sent = engine.recordCommands()

        // What the link sends: the catalogue with no file, then again with the laser made at run time.
        let (first, files) = try #require(RemoteLink.rewrite(root: root, entries: server.catalogue.entries))
        #expect(files.isEmpty)
        let sounds = try #require(RemoteJSON.sounds(first))
        let second = RemoteJSON.manifest(RemoteLink.adding(synth: laser, named: "laser", to: sounds))
        #expect(!String(decoding: second, as: UTF8.self).contains("\"path\""))

        let side = try RemoteTestPlayer()
        defer { side.close() }
        let player = side.player
        RemoteSessionTests.transport(
            [
                .hello(sampleRate: 48_000, frame: 0, session: 1), .catalogue(manifest: first, files: []),
                .catalogue(manifest: second, files: []),
            ], into: player)
        try await RemoteSessionTests.wait { player.report.loaded == 2 }
        #expect(player.report.filesReceived == 0)

        try server.effects.play("coin", at: .milliseconds(200))
        try server.effects.play("laser", at: .milliseconds(600))
        _ = engine.triggerPort.play(try server.bank.id(of: "laser"), at: .milliseconds(800))
        let heard = try engine.render(frames: 48_000)
        #expect(AudioAnalysis.rms(heard) > 0.01)
        let commands = sent.withLock { $0 }
        // The laser's variation moved the pitch of its plays by id; the command carries it to the player.
        let pitches = commands.compactMap { command -> Float? in
            if case .play(_, _, let options, _) = command.0 { options.pitch } else { nil }
        }
        #expect(pitches.count == 3 && pitches.contains { $0 != 1 }, "pitches \(pitches)")
        try await side.send(
            commands,
            naming: [(try server.bank.id(of: "coin"), "coin"), (try server.bank.id(of: "laser"), "laser")])
        #expect(player.report.late == 0 && player.report.notArrived == 0)
        let played = try side.engine.render(frames: 48_000 + RemoteTestPlayer.shift)
        // The player's mix, the player's shift later, is the server's, sample for sample.
        let shifted = Array(played.samples[(RemoteTestPlayer.shift * 2)...])
        #expect(shifted.count == heard.samples.count)
        let largest = zip(shifted, heard.samples).map { abs($0 - $1) }.max() ?? 1
        #expect(largest == 0, "the player's render differs from the game's by up to \(largest)")
    }
}
