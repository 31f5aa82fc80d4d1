import Foundation
import SoundStationTesting
import Testing

@testable import SoundStation
@testable import SoundStationPlayer

/// A remote session end to end in one process, with real engines and files: the server's command tap
/// and catalogue go through frames and the extractor to a player on an offline engine, whose render
/// holds each sound at its server frame plus the delay, to the sample.
@Suite struct RemoteSessionTests {
    /// A beep that starts at full level on its first sample (cosine phase).
    static let beep = Signals.sine(frequency: 1000, seconds: 0.05, amplitude: 0.5, phase: .pi / 2)

    /// The frames of `messages`, cut into random pieces, through an extractor.
    static func transport(_ messages: [RemoteMessage], into player: RemotePlayer) {
        let stream = messages.flatMap { RemoteFraming.frame($0.encoded())! }
        var extractor = FrameExtractor()
        var text: [UInt8] = []
        var index = 0
        while index < stream.count {
            let end = min(stream.count, index + Int.random(in: 1...5000))
            var found: [[UInt8]] = []
            extractor.feed(Array(stream[index..<end]), now: 0, text: &text, messages: &found)
            player.receive(found)
            index = end
        }
        #expect(text.isEmpty)
        #expect(extractor.counts.accepted == messages.count)
    }

    /// The catalogue message and the file pieces a remote link would send for `catalogue`.
    static func assetMessages(
        _ catalogue: Catalogue, from start: [ContentHash: Int] = [:], upTo limit: Int = .max
    )
        throws -> [RemoteMessage]
    {
        let (manifest, files) = try #require(
            RemoteLink.rewrite(root: catalogue.root, entries: catalogue.entries))
        var messages: [RemoteMessage] = [
            .catalogue(manifest: manifest, files: files.map { RemoteFile(hash: $0.hash, size: $0.size) })
        ]
        for file in files {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file.path)))
            var offset = start[file.hash] ?? 0
            while offset < min(bytes.count, limit) {
                let piece = Array(bytes[offset..<min(bytes.count, offset + 4096)])
                messages.append(.fileChunk(file.hash, size: bytes.count, offset: offset, data: piece))
                offset += piece.count
            }
        }
        return messages
    }

    /// Waits up to 20 s for `condition`; a failure is reported at the caller's line.
    static func wait(
        _ condition: () -> Bool, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let deadline = ContinuousClock.now + .seconds(20)
        while !condition(), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(condition(), "still false after 20 s", sourceLocation: sourceLocation)
    }

    @Test func soundsPlayAtTheirServerFramePlusTheDelayToTheSample() async throws {
        let assets = try TestAssets()
        try assets.addWAV("beep", Self.beep)
        let server = try await assets.system()
        let sent = server.engine.recordCommands()

        let side = try RemoteTestPlayer()
        defer { side.close() }
        try await side.open(server.catalogue)
        #expect(side.player.report.filesReceived == 1)
        #expect(side.cache.entries().count == 1)

        try server.effects.play("beep", at: .milliseconds(200))
        try server.effects.play("beep", at: .milliseconds(700))
        _ = try server.engine.render(frames: 48_000)
        let commands = sent.withLock { $0 }
        let plays = commands.filter { if case .play = $0.0 { true } else { false } }
        #expect(plays.count == 2)
        try await side.send(commands, naming: [(try server.bank.id(of: "beep"), "beep")])
        #expect(side.player.report.late == 0 && side.player.report.notArrived == 0)

        let mix = try side.engine.render(frames: 60_000)
        // Server frames 9600 and 33600, plus the 100 ms delay rounded up to whole quanta (the first
        // message came at local 0).
        #expect(AudioAnalysis.onset(mix, threshold: 0.05) == 9_600 + RemoteTestPlayer.shift)
        #expect(AudioAnalysis.onset(mix, threshold: 0.05, from: 20_000) == 33_600 + RemoteTestPlayer.shift)
    }

    @Test func aTransferCutOffResumesInTheNextSession() async throws {
        let assets = try TestAssets()
        try assets.addWAV("beep", Self.beep)
        let catalogue = try assets.catalogue()
        let cacheFolder = FileManager.default.temporaryDirectory.appendingPathComponent("ss-cache-\(UUID())")
            .path
        defer { try? FileManager.default.removeItem(atPath: cacheFolder) }
        let cache = try AssetCache(directory: cacheFolder)
        let local = try AudioEngine(output: .offline(sampleRate: 48_000, channels: 2))
        // The first session ends after 8 KiB of the file.
        let first = RemotePlayer(engine: local, cache: cache)
        Self.transport(try Self.assetMessages(catalogue, upTo: 8192), into: first)
        try await Self.wait { first.report.fileBytes == 8192 }
        first.finish()
        let partials = cache.partials()
        #expect(partials.count == 1 && partials.first?.bytes == 8192)
        let announcement = try #require(
            RemoteAnnouncement(
                parsing: RemoteAnnouncement(partial: [partials[0].hash.shortHex: partials[0].bytes]).value))
        #expect(announcement.partial == [partials[0].hash.shortHex: 8192])
        // The next picks up where it stopped; the whole file is checked by its hash.
        let second = RemotePlayer(engine: local, cache: cache)
        defer { second.finish() }
        Self.transport(try Self.assetMessages(catalogue, from: [partials[0].hash: 8192]), into: second)
        try await Self.wait { second.report.loaded == 1 }
        #expect(second.report.filesReceived == 1)
        #expect(second.report.fileBytes == cache.entries()[0].size - 8192)
        #expect(cache.partials().isEmpty && cache.verify().removed == 0)
    }

    @Test func aSoundThatHasNotArrivedIsRefusedAndCounted() async throws {
        let side = try RemoteTestPlayer()
        defer { side.close() }
        let player = side.player
        let play = EngineCommand.play(
            voice: VoiceHandle(ticket: 1), sound: SoundID(rawValue: 0), options: PlayOptions(), frame: nil)
        Self.transport(
            [
                .hello(sampleRate: 48_000, frame: 0, session: 1),
                .soundName(SoundID(rawValue: 0), name: "beep"),
                .command(play, frame: 10),
            ], into: player)
        try await Self.wait { player.report.notArrived == 1 }
        #expect(AudioAnalysis.peak(try side.engine.render(frames: 24_000)) == 0)
    }

    @Test func aCatalogueNamingPathsOrBadBytesIsRefusedAndNothingIsWritten() async throws {
        let side = try RemoteTestPlayer()
        defer { side.close() }
        let (player, cache) = (side.player, side.cache)
        let claimed = ContentHash.of(Array("claimed".utf8))
        let escaping = #"{"sounds": [{"name": "a", "path": "../../../tmp/x.wav", "kind": "effect"}]}"#
        let honest = #"{"sounds": [{"name": "a", "path": "\#(claimed.hex).wav", "kind": "effect"}]}"#
        Self.transport(
            [
                .catalogue(manifest: Array(escaping.utf8), files: [RemoteFile(hash: claimed, size: 3)]),
                .catalogue(manifest: Array(honest.utf8), files: [RemoteFile(hash: claimed, size: 3)]),
                .fileChunk(claimed, size: 3, offset: 0, data: Array("bad".utf8)),
                .fileChunk(claimed, size: 3, offset: 1, data: [1]),
            ], into: player)
        try await Self.wait { player.report.refused == 3 }
        #expect(cache.entries().isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: side.folder).isEmpty)
    }

    @Test func theCacheFindsDamageByHashAndKeepsToItsCap() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ss-cache-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let cache = try AssetCache(directory: folder, maxBytes: 2500)
        let files = (0..<3).map { index in [UInt8](repeating: UInt8(index), count: 1000) }
        for (index, bytes) in files.enumerated() {
            try cache.store(bytes, hash: .of(bytes), ext: "wav")
            // Modification times a second apart, so "least recently used" is well defined.
            let path = folder + "/" + ContentHash.of(bytes).hex + ".wav"
            var times = [
                timeval(tv_sec: 1_000_000 + index, tv_usec: 0),
                timeval(tv_sec: 1_000_000 + index, tv_usec: 0),
            ]
            utimes(path, &times)
        }
        // The oldest went when the third arrived: 3000 bytes > 2500.
        #expect(Set(cache.entries().map(\.hash)) == [ContentHash.of(files[1]), ContentHash.of(files[2])])
        #expect(throws: RemoteError.self) { try cache.store(files[0], hash: .of(files[1]), ext: "wav") }
        #expect(throws: RemoteError.self) { try cache.store(files[0], hash: .of(files[0]), ext: "../x") }
        // Damage one: verify removes it.
        let damaged = folder + "/" + ContentHash.of(files[1]).hex + ".wav"
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: damaged))
        try handle.write(contentsOf: Data([9, 9, 9]))
        try handle.close()
        let (sound, removed) = cache.verify()
        #expect(sound == [ContentHash.of(files[2])] && removed == 1)
        #expect(cache.clear().files == 1)
    }

    @Test func theAnnouncementRoundTripsAndIsIgnoredInsideAMultiplexer() throws {
        let hash = ContentHash.of(Array("x".utf8))
        let announcement = RemoteAnnouncement(cached: [hash.shortHex])
        #expect(RemoteAnnouncement(parsing: announcement.value) == announcement)
        #expect(
            RemoteAnnouncement(parsing: "ss1 have=XYZ,../../a,0123456789abcdef")
                == RemoteAnnouncement(cached: ["0123456789abcdef"]))
        #expect(RemoteAnnouncement(parsing: "ss2") == nil)
        let environment = [RemoteAnnouncement.variable: announcement.value]
        #expect(RemoteAnnouncement.from(environment: environment) == announcement)
        #expect(
            RemoteAnnouncement.from(environment: environment.merging(["TMUX": "/tmp/t,1,0"]) { a, _ in a })
                == nil)
        #expect(try AudioOutput.fromEnvironment(environment: environment) == .remote)
        #expect(
            try AudioOutput.fromEnvironment(
                environment: environment.merging(["SOUNDSTATION_OUTPUT": "silent"]) { a, _ in a }) == .silent)
        #expect(try AudioOutput.fromEnvironment(environment: ["SOUNDSTATION_OUTPUT": "remote"]) == .remote)
        #expect(try AudioOutput.fromEnvironment(environment: [:]) == .device())
    }

    /// A listening Unix socket at `path` (nil when it cannot be made).
    static func listen(at path: String) -> Int32? {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard fd >= 0, bound == 0, Glibc.listen(fd, 64) == 0 else { return nil }
        return fd
    }

    @Test func aForwardedSocketIsFoundInASessionAndAStaleOneRemoved() throws {
        let user = try #require(RemoteSocket.currentUser())
        let token = UUID().uuidString.prefix(8)
        let live = "/tmp/soundstation-\(user)-test\(token)-live.sock"
        let stale = "/tmp/soundstation-\(user)-test\(token)-stale.sock"
        let listener = try #require(Self.listen(at: live))
        defer {
            close(listener)
            unlink(live)
        }
        // A socket whose listener is gone, as sshd leaves one behind.
        close(try #require(Self.listen(at: stale)))
        defer { unlink(stale) }
        #expect(RemoteSocket.candidates().contains(live) && RemoteSocket.candidates().contains(stale))

        // Outside an SSH session or a multiplexer nothing is looked for; a name is taken as given.
        #expect(RemoteSocket.find(environment: [:]) == nil)
        #expect(RemoteSocket.find(environment: [RemoteSocket.variable: live]) == live)
        #expect(RemoteSocket.find(environment: [RemoteSocket.variable: stale]) == nil)
        #expect(
            RemoteAnnouncement.route(environment: [RemoteSocket.variable: live]) == .socket(live))
        #expect(try AudioOutput.fromEnvironment(environment: [RemoteSocket.variable: live]) == .remote)
        // In an SSH session outside a multiplexer only the session's own socket counts: this one's
        // listener is the test itself, no ancestor. The stale one is removed on the way.
        let session = ["SSH_CONNECTION": "127.0.0.1 1 127.0.0.1 22"]
        #expect(RemoteSocket.find(environment: session) == nil)
        #expect(!FileManager.default.fileExists(atPath: stale))
        // Inside a multiplexer the newest that answers (another of the user's may be newer, so only
        // that one answers is asserted); a multiplexer started outside an SSH session looks for none.
        #expect(RemoteSocket.find(environment: session.merging(["TMUX": "/tmp/t,1,0"]) { a, _ in a }) != nil)
        #expect(RemoteSocket.find(environment: ["TMUX": "/tmp/t,1,0"]) == nil)
        // The terminal's announcement wins outside a multiplexer, the socket inside one.
        let announced = [RemoteAnnouncement.variable: "ss1", RemoteSocket.variable: live]
        #expect(RemoteAnnouncement.route(environment: announced) == .terminal(RemoteAnnouncement()))
        #expect(
            RemoteAnnouncement.route(environment: announced.merging(["STY": "1.pts"]) { a, _ in a })
                == .socket(live))
    }

    @Test func theAnnouncementLineIsReadFromASocketWithinItsTime() throws {
        var pair: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        defer {
            close(pair[0])
            close(pair[1])
        }
        let line = Array("ss1 have=0123456789abcdef\n".utf8)
        _ = line.withUnsafeBytes { write(pair[1], $0.baseAddress, $0.count) }
        #expect(
            RemoteSocket.readAnnouncement(pair[0], timeout: .seconds(1))
                == RemoteAnnouncement(cached: ["0123456789abcdef"]))
        // Nothing in time: no player.
        #expect(RemoteSocket.readAnnouncement(pair[0], timeout: .milliseconds(50)) == nil)
    }
}
