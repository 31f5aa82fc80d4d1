import Foundation
import SoundStationTesting
import Testing

@testable import SoundStation
@testable import SoundStationPlayer

/// A hostile server against the player's budget: it speaks the wire protocol directly (frames through
/// the extractor, as a terminal delivers them) and asks the player to hold more than it should.
@Suite struct RemoteBudgetTests {
    /// A fresh cache folder, removed by the caller.
    static func cacheFolder() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("ss-cache-\(UUID())").path
    }

    /// The catalogue message and the file pieces for `entries` (name, file bytes, extension).
    static func catalogue(_ entries: [(name: String, file: [UInt8], ext: String)]) -> [RemoteMessage] {
        var files: [ContentHash: [UInt8]] = [:]
        var sounds: [String] = []
        for entry in entries {
            let hash = ContentHash.of(entry.file)
            files[hash] = entry.file
            sounds.append(
                #"{"name": "\#(entry.name)", "path": "\#(hash.hex).\#(entry.ext)", "kind": "effect"}"#)
        }
        let manifest = Array((#"{"sounds": ["# + sounds.joined(separator: ", ") + "]}").utf8)
        var messages: [RemoteMessage] = [
            .catalogue(
                manifest: manifest, files: files.map { RemoteFile(hash: $0.key, size: $0.value.count) })
        ]
        for (hash, bytes) in files {
            var offset = 0
            while offset < bytes.count {
                let piece = Array(bytes[offset..<min(bytes.count, offset + 12_288)])
                messages.append(.fileChunk(hash, size: bytes.count, offset: offset, data: piece))
                offset += piece.count
            }
        }
        return messages
    }

    /// The bytes of a file `write` makes in a scratch folder.
    static func fileBytes(_ write: (String) throws -> Void) throws -> [UInt8] {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ss-file-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try write(path)
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// 10 s of stereo silence at 48 kHz as Ogg Vorbis (about 20 KB; 3.84 MB decoded).
    static func silenceOgg() throws -> [UInt8] {
        try fileBytes { path in
            let encoder = try VorbisEncoder(path: path, sampleRate: 48_000, channels: 2, quality: 0.1)
            try encoder.write([Float](repeating: 0, count: 960_000))
            try encoder.finish()
        }
    }

    /// `audio` as a 16-bit WAV.
    static func wav(_ audio: PCMAudio) throws -> [UInt8] {
        try fileBytes { try WAVWriter.write(audio, toFileAt: $0, format: .int16) }
    }

    /// A budget of 10 MB of decoded samples.
    static var tenMegabytes: RemoteBudget {
        var budget = RemoteBudget()
        budget.decodedBytes = 10 << 20
        return budget
    }

    /// The catalogue and files of a beep and two files of 10 s of stereo (7.68 MB decoded each,
    /// different bytes), of which ``tenMegabytes`` holds one; and the beep's file.
    static func beepAndTwoLongFiles() throws -> (messages: [RemoteMessage], beep: [UInt8]) {
        let beep = try wav(RemoteSessionTests.beep)
        let first = try wav(Signals.sine(frequency: 100, seconds: 10, amplitude: 0.1, channels: 2))
        let second = try wav(Signals.sine(frequency: 200, seconds: 10, amplitude: 0.1, channels: 2))
        let messages = catalogue([
            (name: "beep", file: beep, ext: "wav"), (name: "first", file: first, ext: "wav"),
            (name: "second", file: second, ext: "wav"),
        ])
        return (messages, beep)
    }

    @Test func oneFrameOf120EntriesOnOneOggHoldsOneDecodeWithinTheBudget() async throws {
        let folder = Self.cacheFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let cache = try AssetCache(directory: folder, maxBytes: 32 << 20)
        let engine = try AudioEngine(output: .offline(sampleRate: 48_000, channels: 2))
        let player = RemotePlayer(engine: engine, cache: cache, delay: .milliseconds(100))
        defer { player.finish() }
        let ogg = try Self.silenceOgg()
        let entries = (0..<120).map { (name: "silence-\($0)", file: ogg, ext: "ogg") }
        let messages = Self.catalogue(entries)
        // The catalogue itself is one frame (about 20 KB of text).
        #expect(RemoteFraming.frame(messages[0].encoded()) != nil)
        RemoteSessionTests.transport(
            [.hello(sampleRate: 48_000, frame: 0, session: 1)] + messages, into: player)
        try await RemoteSessionTests.wait { player.report.loaded == 120 }

        // One decode, charged once: 960,000 samples at 4 bytes, and the device's copy at 4 at most.
        let report = player.report
        #expect(report.held.decodedBytes == 960_000 * 8)
        #expect(report.held.decodedBytes <= player.budget.decodedBytes)
        #expect(report.held.entries == 120)
        #expect(report.overBudget.isEmpty)
        // The engine holds one buffer (the other 119 play its samples), not 120.
        #expect(engine.bufferCount == 1)
        // The decoded-sound cache is the player's, inside its folder and its cap.
        let decoded = (try? FileManager.default.contentsOfDirectory(atPath: folder + "/decoded")) ?? []
        #expect(decoded.filter { $0.hasSuffix(".pcm") }.count == 1)
        #expect(cache.pcmBytes() + cache.entries().reduce(0) { $0 + $1.size } <= cache.maxBytes)
    }

    @Test func beyondTheDecodedBudgetALoadIsRefusedCountedAndTheRestPlays() async throws {
        let side = try RemoteTestPlayer(budget: Self.tenMegabytes)
        defer { side.close() }
        let (player, engine, budget) = (side.player, side.engine, Self.tenMegabytes)
        let (messages, _) = try Self.beepAndTwoLongFiles()
        RemoteSessionTests.transport(
            [.hello(sampleRate: 48_000, frame: 0, session: 1)] + messages, into: player)
        try await RemoteSessionTests.wait { player.report.overBudget[.decoded] == 1 }
        try await RemoteSessionTests.wait { player.report.loaded == 2 }
        let report = player.report
        #expect(report.held.decodedBytes <= budget.decodedBytes)
        #expect(!report.ready)
        // Refused once and counted once, whichever order the files came in.
        #expect(report.overBudget[.decoded] == 1)

        // What it has still plays, at its time.
        let play = EngineCommand.play(
            voice: VoiceHandle(ticket: 1), sound: SoundID(rawValue: 7), options: PlayOptions(), frame: nil)
        RemoteSessionTests.transport(
            [.soundName(SoundID(rawValue: 7), name: "beep"), .command(play, frame: 4800)], into: player)
        try await RemoteSessionTests.wait { player.report.commands == 1 }
        let mix = try engine.render(frames: 24_000)
        // The command (server frame 4800) arrived at local time 0 and anchors the clock: it plays at
        // its arrival plus the 100 ms delay.
        #expect(AudioAnalysis.onset(mix, threshold: 0.05) == 4800)
    }

    @Test func aLoadRefusedForTheBudgetIsNotTriedAgainWhenMoreFilesArrive() async throws {
        let side = try RemoteTestPlayer(budget: Self.tenMegabytes)
        defer { side.close() }
        let (player, budget) = (side.player, Self.tenMegabytes)
        let (messages, beep) = try Self.beepAndTwoLongFiles()
        let beepHash = ContentHash.of(beep)
        let isBeep = { (message: RemoteMessage) -> Bool in
            if case .fileChunk(let hash, _, _, _) = message { return hash == beepHash }
            return false
        }
        // The two long files first: one loads, the other is refused.
        RemoteSessionTests.transport(
            [.hello(sampleRate: 48_000, frame: 0, session: 1)] + messages.filter { !isBeep($0) }, into: player
        )
        try await RemoteSessionTests.wait {
            player.report.loaded == 1 && player.report.overBudget[.decoded] == 1
        }
        // A file arriving afterwards loads its own sound, not the refused one again.
        RemoteSessionTests.transport(messages.filter(isBeep), into: player)
        // Done when nothing is left to load (a refused entry queued again would count until tried).
        try await RemoteSessionTests.wait { player.report.loaded == 2 && player.report.held.entries == 2 }
        #expect(player.report.overBudget[.decoded] == 1)
        #expect(player.report.held.decodedBytes <= budget.decodedBytes)
    }

    @Test func aFloodOfLongNamesIsBoundedByTheNameBudget() async throws {
        let side = try RemoteTestPlayer()
        defer { side.close() }
        let player = side.player
        let flood = 20_000
        let names = (0..<flood).map { "\u{1B}]0;PWNED\u{7}" + String(repeating: "n", count: 4000) + "\($0)" }
        let messages = names.enumerated().map { index, name in
            RemoteMessage.soundName(SoundID(rawValue: Int32(index)), name: name)
        }
        // The names that fit, in order (later names are longer, so none fits after the first that does
        // not).
        var fitting = 0
        var total = 0
        while total + names[fitting].utf8.count <= RemoteBudget().nameBytes {
            total += names[fitting].utf8.count
            fitting += 1
        }
        // In slices, as a rate-limited stream would bring them.
        for start in stride(from: 0, to: flood, by: 1000) {
            player.receive(messages[start..<start + 1000].map { $0.encoded() })
        }
        try await RemoteSessionTests.wait { player.report.messages == flood }
        let report = player.report
        let budget = player.budget
        #expect(report.held.nameBytes <= budget.nameBytes && report.held.names <= budget.names)
        #expect(report.held.names == fitting && report.held.nameBytes == total)
        #expect(report.overBudget[.names] == flood - report.held.names)
        // A name given again for an id it holds replaces the old one and takes no more room.
        player.receive([RemoteMessage.soundName(SoundID(rawValue: 0), name: "short").encoded()])
        try await RemoteSessionTests.wait { player.report.messages == flood + 1 }
        #expect(player.report.held.names == report.held.names)
        #expect(player.report.held.nameBytes < report.held.nameBytes)
    }

    @Test func commandsForAnHourAheadAreHeldWithinThePendingBudget() async throws {
        let side = try RemoteTestPlayer()
        defer { side.close() }
        let (player, engine) = (side.player, side.engine)
        let command = EngineCommand.stopAll(bus: nil, fade: .zero)
        // The first command anchors the clock; 10,000 more name a frame an hour later.
        let flood = (0..<10_000).map { _ in RemoteMessage.command(command, frame: 48_000 * 3600) }
        player.receive(
            ([.hello(sampleRate: 48_000, frame: 0, session: 1), .command(command, frame: 0)] + flood).map {
                $0.encoded()
            })
        try await RemoteSessionTests.wait { player.report.messages == 10_002 }
        let limit = player.budget.pendingCommands
        #expect(player.report.held.scheduledCommands == limit)
        #expect(player.report.overBudget[.pending] == 10_001 - limit)
        // The first runs at its time, and is no longer held.
        _ = try engine.render(frames: 24_000)
        #expect(player.report.held.scheduledCommands == limit - 1)
    }

    @Test func musicStopsForAnHourAheadAreHeldWithinThePendingBudget() async throws {
        var budget = RemoteBudget()
        budget.pendingCommands = 100
        let side = try RemoteTestPlayer(budget: budget)
        defer { side.close() }
        let player = side.player
        let anchor = EngineCommand.stopAll(bus: nil, fade: .zero)
        let stop = EngineCommand.stopMusic(fade: .zero, frame: nil)
        let flood = (0..<1000).map { _ in RemoteMessage.command(stop, frame: 48_000 * 3600) }
        player.receive(
            ([.hello(sampleRate: 48_000, frame: 0, session: 1), .command(anchor, frame: 0)] + flood).map {
                $0.encoded()
            })
        try await RemoteSessionTests.wait { player.report.messages == 1002 }
        // The anchor's stop is held by the engine, 99 music stops by the music station.
        #expect(player.report.held.scheduledCommands == 100)
        #expect(player.report.overBudget[.pending] == 901)
    }

    @Test func messagesBeyondTheQueueBudgetAreDroppedAndCounted() throws {
        var budget = RemoteBudget()
        budget.queuedBytes = 1000
        let side = try RemoteTestPlayer(budget: budget)
        defer { side.close() }
        let player = side.player
        // Ten messages of 500 bytes in one read: two fit in the queue.
        player.receive((0..<10).map { _ in [UInt8](repeating: 0xEE, count: 500) })
        side.finish()
        #expect(player.report.overBudget[.queued] == 8)
        #expect(player.report.undecodable == 2)
    }

    @Test func theCacheCapCoversTheDecodedSoundsInIt() throws {
        let folder = Self.cacheFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let cache = try AssetCache(directory: folder, maxBytes: 3000)
        let files = (0..<3).map { [UInt8](repeating: UInt8($0), count: 1000) }
        try cache.store(files[0], hash: .of(files[0]), ext: "wav")
        try cache.store(files[1], hash: .of(files[1]), ext: "wav")
        // A quarter of the cap, and no more than the files leave.
        #expect(cache.pcmCache.byteLimit == 750)
        #expect(cache.pcmCache.directory == folder + "/decoded")
        try FileManager.default.createDirectory(
            atPath: folder + "/decoded", withIntermediateDirectories: true)
        try Data(count: 900).write(to: URL(fileURLWithPath: folder + "/decoded/x.pcm"))
        #expect(cache.pcmCache.byteLimit == 750)
        // A third file makes room counting the decoded sounds: one file goes, not none.
        try cache.store(files[2], hash: .of(files[2]), ext: "wav")
        #expect(cache.entries().count == 2)
        #expect(cache.pcmBytes() + cache.entries().reduce(0) { $0 + $1.size } <= 3000)
        #expect(cache.clear().bytes == 2900)
    }
}
