import Foundation
import SoundStationTesting
import Testing

@testable import SoundStation
@testable import SoundStationPlayer

/// A session recorded from a game, decoded on the player's side and rendered there, sample for
/// sample the game's own offline render: the player carries out the commands it receives with the
/// same mixer steps as the game (no second interpretation), at their frames plus the delay.
@Suite struct RemoteEqualsLocalTests {
    /// The player's delay: the first message arrives at its frame 0, so every command lands this many
    /// frames after its server frame.
    static let delayFrames = 5_120

    /// A game session: a sound system on its catalogue, every command its mixer carried out (with
    /// its frame) and its own offline render.
    struct Session {
        let assets: TestAssets
        let game: SoundSystem
        let names: [String]
        let commands: [(EngineCommand, Int64)]
        let rendered: [Float]
    }

    /// Records `script` played on a game made of `assets` (its catalogue's `names` sent to the player).
    static func record(
        _ assets: TestAssets, names: [String], _ script: (SoundSystem, (Int) throws -> Void) throws -> Void
    ) async throws -> Session {
        let game = try await assets.system()
        let sent = Locked<[(EngineCommand, Int64)]>([])
        game.engine.commandTap.withLock {
            $0 = { command, frame in sent.withLock { $0.append((command, frame)) } }
        }
        var rendered: [Float] = []
        try script(game) { frames in rendered += try game.engine.render(frames: frames).samples }
        return Session(
            assets: assets, game: game, names: names, commands: sent.withLock { $0 }, rendered: rendered)
    }

    /// The session's messages as bytes through the player's extractor, played by a player whose
    /// delay is `delayFrames` on an offline engine, rendered for the session's length plus
    /// `delayFrames` and one quantum. The catalogue is loaded before the commands come, unless
    /// `loadFirst` is false: then every message comes at once, and the plays wait for their loads.
    static func playerRender(of session: Session, delayFrames: Int, loadFirst: Bool = true) async throws -> (
        PCMAudio, RemotePlayer.Report
    ) {
        let (manifest, files) = try #require(
            RemoteLink.rewrite(root: session.game.catalogue.root, entries: session.game.catalogue.entries))
        var messages: [RemoteMessage] = [
            .hello(sampleRate: 48_000, frame: 0, session: 1),
            .catalogue(manifest: manifest, files: files.map { RemoteFile(hash: $0.hash, size: $0.size) }),
        ]
        for name in session.names {
            messages.append(.soundName(try session.game.bank.id(of: name), name: name))
        }
        messages += session.commands.map { .command($0.0, frame: $0.1) }
        let wire = messages.flatMap { RemoteFraming.frame($0.encoded())! }

        // The player's side: the files cached from an earlier session (so the catalogue loads as one
        // sound system, as the game's), an offline engine, the bytes through the extractor.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ss-cache-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let cache = try AssetCache(directory: folder)
        for file in files {
            let ext = (file.path as NSString).pathExtension
            try cache.store(
                [UInt8](try Data(contentsOf: URL(fileURLWithPath: file.path))), hash: file.hash, ext: ext)
        }
        let engine = try AudioEngine(output: .offline(sampleRate: 48_000, channels: 2))
        let player = RemotePlayer(
            engine: engine, cache: cache, delay: .frames(Int64(delayFrames), rate: 48_000))
        defer { player.finish() }
        var extractor = FrameExtractor()
        var text: [UInt8] = []
        var found: [[UInt8]] = []
        extractor.feed(wire, now: 0, text: &text, messages: &found)
        #expect(text.isEmpty && found.count == messages.count)
        if loadFirst {
            // The catalogue first, so every sound is loaded before its commands are placed.
            player.receive(Array(found.prefix(2)))
            try await RemoteSessionTests.wait { player.report.loaded == session.names.count }
            player.receive(Array(found.dropFirst(2)))
        } else {
            player.receive(found)
        }
        try await RemoteSessionTests.wait { player.report.commands == session.commands.count }
        let frames = session.rendered.count / 2 + delayFrames + Int(AudioEngine.quantum)
        return (try engine.render(frames: frames), player.report)
    }

    /// Expects `remote` to hold the session's render from frame `offset` on, sample for sample, and
    /// silence before.
    static func expectSame(_ remote: PCMAudio, _ session: Session, from offset: Int) {
        #expect(AudioAnalysis.rms(remote, frames: 0..<offset) == 0)
        var first: Int?
        var largest: Float = 0
        for index in 0..<session.rendered.count {
            let difference = abs(remote.samples[offset * 2 + index] - session.rendered[index])
            if difference > 0, first == nil { first = index / 2 }
            largest = max(largest, difference)
        }
        #expect(first == nil, "the player's render first differs at frame \(first ?? 0), by up to \(largest)")
    }

    /// The game: a layered track at an intensity, an effect whose volume tween starts later than its
    /// command, a bus tween that waits too, a rise of intensity on the next beat, a switch on the next
    /// bar with a crossfade, and a pause of the music.
    static func tweensAndSwitches() async throws -> Session {
        let assets = try TestAssets()
        try WAVWriter.write(
            Signals.noise(seconds: 2, amplitude: 0.25, channels: 2, seed: 5),
            toFileAt: "\(assets.root)/drums.wav",
            format: .float32)
        try assets.addWAV(
            "layered", Signals.stereoTones(left: 220, right: 330, seconds: 2), kind: "music",
            extra: "\"bpm\": 120, \"stems\": [{\"path\": \"drums.wav\", \"from\": 0.5}]")
        try assets.addWAV(
            "calm", Signals.stereoTones(left: 440, right: 550, seconds: 2, amplitude: 0.3), kind: "music",
            extra: "\"bpm\": 120")
        try assets.addWAV("hum", Signals.sine(frequency: 660, seconds: 3, amplitude: 0.4))
        return try await record(assets, names: ["layered", "calm", "hum"]) { game, render in
            try game.music.setIntensity(0.6)
            try game.music.play("layered")
            let hum = try #require(try game.effects.play("hum"))
            // A change at once to the voice just started, in the same round as its start.
            try game.engine.setPan(-0.5, for: hum)
            try game.engine.setVolume(
                0.1, for: hum, tween: Tween(.milliseconds(200), start: .at(.milliseconds(400))))
            try game.engine.setVolume(
                0.5, for: .music,
                tween: Tween(.milliseconds(300), easing: .inOutQuad, start: .at(.seconds(1.5))))
            try render(12_000)
            try game.music.setIntensity(
                1, tween: Tween(.milliseconds(300), start: .music(.nextBeat, of: game.music)))
            try game.music.play(
                "calm", transition: .crossfade(.milliseconds(250)), from: .restart, at: .nextBar)
            try render(36_000)
            game.music.pause()
            try render(9_600)
            game.music.resume()
            try render(120_000 - 57_600)
        }
    }

    @Test func aRecordedSessionRendersOnThePlayerAsInTheGame() async throws {
        let session = try await Self.tweensAndSwitches()
        let local = PCMAudio(sampleRate: 48_000, channels: 2, samples: session.rendered)
        #expect(AudioAnalysis.rms(local, frames: 0..<120_000) > 0.05)
        let (remote, report) = try await Self.playerRender(of: session, delayFrames: Self.delayFrames)
        #expect(report.late == 0 && report.notArrived == 0 && report.undecodable == 0)
        Self.expectSame(remote, session, from: Self.delayFrames)
    }

    /// A delay that is not a whole number of quanta: the player's shift is rounded up to one, so its
    /// render is still the game's, sample for sample, from the next quantum on.
    @Test func aDelayOfPartOfAQuantumIsRoundedUpToAWholeOne() async throws {
        let session = try await Self.tweensAndSwitches()
        let delay = Self.delayFrames - 120
        let (remote, report) = try await Self.playerRender(of: session, delayFrames: delay)
        #expect(report.late == 0 && report.notArrived == 0)
        Self.expectSame(remote, session, from: Self.delayFrames)
    }

    /// A switch's own loop and repeats travel with it: a track that loops by its entry, played once,
    /// and one played twice, end on the player where they end in the game.
    @Test func aSwitchsLoopAndRepeatsReachThePlayer() async throws {
        let assets = try TestAssets()
        try assets.addWAV(
            "theme", Signals.stereoTones(left: 300, right: 450, seconds: 0.25), kind: "music")
        try assets.addWAV(
            "sting", Signals.stereoTones(left: 500, right: 650, seconds: 0.25), kind: "music")
        let session = try await Self.record(assets, names: ["theme", "sting"]) { game, render in
            try game.music.play("theme", loop: false)
            try render(24_000)
            try game.music.play("sting", loop: false, repeats: 1)
            try render(48_000)
        }
        // In the game: the theme once (0.25 s), silence, the sting twice (0.5 s), silence.
        let local = PCMAudio(sampleRate: 48_000, channels: 2, samples: session.rendered)
        #expect(AudioAnalysis.rms(local, frames: 1_000..<11_000) > 0.05)
        #expect(AudioAnalysis.rms(local, frames: 13_000..<24_000) == 0)
        #expect(AudioAnalysis.rms(local, frames: 36_000..<46_000) > 0.05)
        #expect(AudioAnalysis.rms(local, frames: 50_000..<72_000) == 0)
        let (remote, report) = try await Self.playerRender(of: session, delayFrames: Self.delayFrames)
        #expect(report.late == 0 && report.notArrived == 0 && report.refused == 0)
        Self.expectSame(remote, session, from: Self.delayFrames)
    }

    /// Commands for voices whose sound is still loading on the player: a volume and a pan, a stop of
    /// a voice not begun, a pause and a resume reach their voices there as in the game (before, a
    /// command for a voice whose play waited for its load found no voice and was dropped).
    @Test func commandsForAVoiceWhoseSoundStillLoadsReachIt() async throws {
        let assets = try TestAssets()
        // Long enough (Ogg Vorbis, 6 s) that the player is still decoding it when the plays come.
        try assets.addOgg(
            "hum", Signals.sine(frequency: 660, seconds: 6, amplitude: 0.4), kind: "effect")
        let session = try await Self.record(assets, names: ["hum"]) { game, render in
            let loud = try #require(try game.effects.play("hum"))
            try game.engine.setVolume(0.3, for: loud)
            try game.engine.setPan(-0.5, for: loud)
            let later = try #require(try game.effects.play("hum", at: .milliseconds(300)))
            game.engine.stop(later)
            try render(4_800)
            let held = try #require(try game.effects.play("hum"))
            game.engine.pause(held)
            try render(9_600)
            game.engine.resume(held)
            try game.engine.setPitch(1.25, for: held)
            try render(14_400)
            game.engine.stop(loud, fade: .milliseconds(100))
            try render(19_200)
        }
        let local = PCMAudio(sampleRate: 48_000, channels: 2, samples: session.rendered)
        #expect(AudioAnalysis.rms(local, frames: 0..<48_000) > 0.05)
        let (remote, report) = try await Self.playerRender(
            of: session, delayFrames: Self.delayFrames, loadFirst: false)
        #expect(report.waitedForLoad == 3, "plays that waited for the load: \(report.waitedForLoad)")
        // The one load they waited for ran in the real-time class where the machine grants it.
        let granted = RealTimeClassTests.probe().refused == nil
        #expect(report.hurriedLoads == (granted ? 1 : 0), "hurried loads: \(report.hurriedLoads)")
        #expect(report.late == 0 && report.notArrived == 0 && report.refused == 0)
        Self.expectSame(remote, session, from: Self.delayFrames)
    }

    @Test func aCommandWithAValueNoCallAcceptsIsRefusedAndCounted() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ss-cache-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let engine = try AudioEngine(output: .offline(sampleRate: 48_000, channels: 2))
        let player = RemotePlayer(engine: engine, cache: try AssetCache(directory: folder))
        defer { player.finish() }
        let messages: [RemoteMessage] = [
            .hello(sampleRate: 48_000, frame: 0, session: 1),
            .command(.setBusVolume(.master, -1, tween: nil), frame: 0),
            .command(.setIntensity(2, tween: TweenSpec(duration: .zero)), frame: 0),
            .command(.setBusVolume(.master, 0.5, tween: nil), frame: 0),
        ]
        player.receive(messages.map { $0.encoded() })
        try await RemoteSessionTests.wait { player.report.messages == messages.count }
        let report = player.report
        #expect(report.refused == 2 && report.commands == 1)
        #expect(report.lastRefusal?.contains("intensity 2.0") == true, "\(report.lastRefusal ?? "")")
    }
}
