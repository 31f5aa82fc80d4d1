import Foundation
import SoundStationTesting
import Testing

@_spi(Bindings) @testable import SoundStation
@testable import SoundStationPlayer

/// Sounds made in memory and fed streams over a remote session: the wire messages, the budget, and
/// an engine whose link writes to a file, read back through the extractor into a player on an
/// offline engine.
@Suite struct RemoteMemoryStreamTests {
    /// A server engine (offline, so its clock is what it rendered) whose remote link writes its
    /// frames into a file, as a remote engine writes them into the terminal.
    final class Server {
        let engine: AudioEngine
        let link: RemoteLink
        let path: String

        init(announcement: RemoteAnnouncement = RemoteAnnouncement()) throws {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("ss-link-\(UUID())").path
            _ = FileManager.default.createFile(atPath: path, contents: nil)
            let engine = try AudioEngine(output: .offline(sampleRate: 48_000, channels: 2))
            let link = try RemoteLink(
                route: .terminal(announcement), sampleRate: 48_000, terminal: path,
                clock: { [weak engine] in engine?.frameNow ?? 0 },
                name: { [weak engine] id in engine?.sounds.withLock { $0.name(of: id) } ?? "\(id)" })
            engine.remoteLink.withLock { $0 = link }
            engine.commandTap.withLock { tap in
                tap = { [link] command, frame in link.forward(command, frame: frame) }
            }
            (self.engine, self.link, self.path) = (engine, link, path)
            // The hello carries the clock when the writer greets: before any render, so the player's
            // mapping puts server frame 0 at its own first frame (the checks count from there).
            let deadline = ContinuousClock.now + .seconds(20)
            while link.bytesWritten.load(ordering: .relaxed) == 0, ContinuousClock.now < deadline {
                usleep(1_000)
            }
        }

        /// Closes the link (its writer writes what is queued) and returns the messages it wrote.
        func messages() throws -> [[UInt8]] {
            // Files go out at their byte rate after the commands; a closing link sends none.
            let deadline = ContinuousClock.now + .seconds(20)
            while link.filesToSend > 0, ContinuousClock.now < deadline { usleep(5_000) }
            link.close(timeout: .seconds(10))
            engine.remoteLink.withLock { $0 = nil }
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            try? FileManager.default.removeItem(atPath: path)
            var extractor = FrameExtractor()
            var text: [UInt8] = []
            var found: [[UInt8]] = []
            extractor.feed(bytes, now: 0, text: &text, messages: &found)
            #expect(text.isEmpty)
            return found
        }
    }

    static func decoded(_ messages: [[UInt8]]) -> [RemoteMessage] {
        messages.compactMap { try? RemoteMessage(decoding: $0) }
    }

    // MARK: The wire

    @Test func theStreamMessagesRoundTripAndBadOnesAreRefusedNamingTheValue() throws {
        let messages: [RemoteMessage] = [
            .streamOpen(SoundID(rawValue: 7), channels: 2),
            .streamPacket(SoundID(rawValue: 7), sequence: 0xFFFF_FFFF, frame: 48_000, data: [0xFC, 1, 2]),
            .streamEnd(SoundID(rawValue: 7), packets: 250),
        ]
        for message in messages {
            #expect(try RemoteMessage(decoding: message.encoded()) == message)
            let bytes = message.encoded()
            for cut in 0..<bytes.count {
                #expect(throws: WireError.self) { try RemoteMessage(decoding: Array(bytes[..<cut])) }
            }
            #expect(throws: WireError.trailingBytes(1)) { try RemoteMessage(decoding: bytes + [0]) }
        }
        var open = WireWriter(kind: 107)
        open.i32(7)
        open.u8(3)
        #expect(throws: WireError.invalidValue(field: "stream channels", value: "3")) {
            try RemoteMessage(decoding: open.bytes)
        }
        func packet(id: Int32 = 7, frame: Int64 = 0, length: Int) -> [UInt8] {
            var w = WireWriter(kind: 108)
            w.i32(id)
            w.i32(0)
            w.i64(frame)
            w.blob([UInt8](repeating: 1, count: length))
            return w.bytes
        }
        #expect(throws: WireError.invalidValue(field: "stream packet length", value: "0")) {
            try RemoteMessage(decoding: packet(length: 0))
        }
        #expect(throws: WireError.invalidValue(field: "stream packet length", value: "1276")) {
            try RemoteMessage(decoding: packet(length: 1276))
        }
        #expect(throws: WireError.invalidValue(field: "sound id", value: "-1")) {
            try RemoteMessage(decoding: packet(id: -1, length: 10))
        }
        #expect(throws: WireError.invalidValue(field: "frame", value: "-5")) {
            try RemoteMessage(decoding: packet(frame: -5, length: 10))
        }
        let error = WireError.invalidValue(field: "stream packet length", value: "1276")
        #expect(error.description.contains("1276"))
    }

    @Test func opusPacketsDecodeToTheSineTheyCarry() throws {
        let encoder = try OpusPacketEncoder(channels: 1, sampleRate: 48_000)
        let decoder = try OpusPacketDecoder(channels: 1)
        var out: [Float] = []
        var sizes: [Int] = []
        for packet in 0..<50 {
            let samples = (0..<960).map {
                Float(0.5 * sin(2 * Double.pi * 440 * Double(packet * 960 + $0) / 48_000))
            }
            let data = try #require(samples.withUnsafeBufferPointer { encoder.encode($0.baseAddress!) })
            sizes.append(data.count)
            out += try decoder.decode(data)
        }
        #expect(out.count == 48_000)
        // 64 kbit/s, constrained: about 160 bytes a packet, none beyond the bound of 1275.
        let average = Double(sizes.reduce(0, +)) / Double(sizes.count)
        #expect((100...220).contains(average), "average packet \(average) bytes")
        let audio = PCMAudio(sampleRate: 48_000, channels: 1, samples: out)
        #expect(abs(AudioAnalysis.amplitude(of: 440, in: audio, frames: 4_800..<48_000) - 0.5) < 0.05)
        #expect(AudioAnalysis.amplitude(of: 1000, in: audio, frames: 4_800..<48_000) < 0.01)
        // A packet libopus cannot read is refused with its reason.
        #expect(throws: WireError.self) { try decoder.decode([0xFF, 0xFF, 0xFF]) }
        // Opus takes 8, 12, 16, 24 and 48 kHz; another rate is refused naming it.
        #expect(throws: AudioEngineError.self) { try OpusPacketEncoder(channels: 1, sampleRate: 44_100) }
    }

    @Test func streamsBeyondTheBudgetAndFramesBeyondAStreamsBufferAreRefusedAndCounted() async throws {
        var budget = RemoteBudget()
        budget.streams = 2
        budget.streamFrames = 2_000
        let side = try RemoteTestPlayer(budget: budget)
        defer { side.close() }
        let encoder = try OpusPacketEncoder(channels: 1, sampleRate: 48_000)
        let silence = [Float](repeating: 0.1, count: 960)
        let data = try #require(silence.withUnsafeBufferPointer { encoder.encode($0.baseAddress!) })
        var messages: [RemoteMessage] = [.hello(sampleRate: 48_000, frame: 0, session: 1)]
        for id: Int32 in 0..<3 { messages.append(.streamOpen(SoundID(rawValue: id), channels: 1)) }
        // Five packets (4800 frames) before its voice plays: 2000 fit.
        for sequence: UInt32 in 0..<5 {
            messages.append(.streamPacket(SoundID(rawValue: 0), sequence: sequence, frame: 0, data: data))
        }
        RemoteSessionTests.transport(messages, into: side.player)
        try await RemoteSessionTests.wait { side.player.report.streams.packets == 5 }
        let report = side.player.report
        #expect(report.streams.opened == 2)
        #expect(report.overBudget[.streams] == 1)
        #expect(report.streams.overflowFrames == 4_800 - 2_000)
    }

    // MARK: Sounds from memory

    @Test func aSoundMadeInMemoryTravelsAsAFileByHashPlaysAtItsTimeAndIsNotSentAgain() async throws {
        let server = try Server()
        let zap = PCMAudio(
            sampleRate: 48_000, channels: 1,
            samples: (0..<4_800).map { Float(0.4 * sin(2 * Double.pi * 660 * Double($0) / 48_000 + .pi / 2)) }
        )
        let buffer = try server.engine.makeBuffer(zap, name: "zap")
        _ = try server.engine.play(buffer, at: .milliseconds(200))
        let heard = try server.engine.render(frames: 24_000)
        let messages = try server.messages()
        let decoded = Self.decoded(messages)
        let wav = WAVWriter.encode(zap, format: .float32)
        let hash = ContentHash.of(wav)
        // The catalogue names it by its content; its bytes are the float WAV of its samples.
        let catalogue = try #require(
            decoded.compactMap { message -> [UInt8]? in
                if case .catalogue(let manifest, let files) = message,
                    files.contains(where: { $0.hash == hash })
                {
                    return manifest
                }
                return nil
            }.last)
        #expect(String(decoding: catalogue, as: UTF8.self).contains("\(hash.hex).wav"))
        let sent = decoded.reduce(into: [UInt8]()) { bytes, message in
            if case .fileChunk(let piece, _, _, let data) = message, piece == hash { bytes += data }
        }
        #expect(sent == wav)

        let side = try RemoteTestPlayer()
        defer { side.close() }
        side.player.receive(messages)
        try await RemoteSessionTests.wait { side.player.report.commands == 1 }
        let report = side.player.report
        side.finish()
        #expect(report.filesReceived == 1 && report.notArrived == 0)
        let played = try side.engine.render(frames: 28_800)
        // At its server frame (9600) plus the player's shift, the same samples as the game's.
        #expect(AudioAnalysis.onset(played, threshold: 0.05) == 9_600 + RemoteTestPlayer.shift)
        #expect(AudioAnalysis.onset(heard, threshold: 0.05) == 9_600)
        let shifted = Array(played.samples[(RemoteTestPlayer.shift * 2)...])
        let largest = zip(shifted, heard.samples).map { abs($0 - $1) }.max() ?? 1
        #expect(largest == 0, "the player's render differs from the game's by up to \(largest)")

        // A second session whose player announces the file: the catalogue lists it, no piece is sent.
        let again = try Server(announcement: RemoteAnnouncement(cached: [hash.shortHex]))
        _ = try again.engine.makeBuffer(zap, name: "zap")
        let second = Self.decoded(try again.messages())
        #expect(
            second.contains {
                if case .catalogue(_, let files) = $0 { files.contains { $0.hash == hash } } else { false }
            })
        #expect(!second.contains { if case .fileChunk = $0 { true } else { false } })
        let cached = try RemoteTestPlayer(folder: side.folder)
        cached.player.receive(
            try {
                let replay = try Server(announcement: RemoteAnnouncement(cached: [hash.shortHex]))
                let buffer = try replay.engine.makeBuffer(zap, name: "zap")
                _ = try replay.engine.play(buffer, at: .milliseconds(200))
                _ = try replay.engine.render(frames: 24_000)
                return try replay.messages()
            }())
        try await RemoteSessionTests.wait { cached.player.report.commands == 1 }
        let fromCache = cached.player.report
        cached.finish()
        #expect(fromCache.filesReceived == 0 && fromCache.filesFromCache == 1 && fromCache.notArrived == 0)
        #expect(
            AudioAnalysis.onset(try cached.engine.render(frames: 28_800), threshold: 0.05)
                == 9_600 + RemoteTestPlayer.shift)
    }

    @Test func encodedBytesInMemoryTravelAsTheyAre() throws {
        let zap = PCMAudio(sampleRate: 22_050, channels: 1, samples: (0..<2_205).map { Float($0 % 50) / 100 })
        let file = WAVWriter.encode(zap, format: .int16)
        let memory = try #require(MemorySoundFile(zap, origin: .encoded(file)))
        #expect(memory.hash == ContentHash.of(file) && memory.ext == "wav" && memory.size == file.count)
        #expect(MemorySoundFile.ext(of: Array("OggS....".utf8)) == "ogg")
        #expect(MemorySoundFile.ext(of: Array("fLaC....".utf8)) == "flac")
        #expect(MemorySoundFile.ext(of: [0xFF, 0xFB, 0x90, 0x00]) == "mp3")
        #expect(MemorySoundFile.ext(of: Array("Extended Module: ".utf8)) == "bin")
        #expect(MemorySoundFile(zap, origin: .file("/nonexistent/zap.wav")) == nil)
    }

    // MARK: Fed streams

    /// A server whose game fed two seconds of a 440 Hz sine (amplitude 0.5, volume 0.8) in 10 ms
    /// pieces, each written and then rendered, as a game feeding just ahead of its device would.
    static func fedSine() throws -> (Server, PCMFeed) {
        let server = try Server()
        let feed = try server.engine.openFeed(
            channels: 1, sampleRate: 48_000, options: PlayOptions(volume: 0.8))
        for piece in 0..<200 {
            let samples = (0..<480).map {
                Float(0.5 * sin(2 * Double.pi * 440 * Double(piece * 480 + $0) / 48_000))
            }
            #expect(feed.write(samples) == 480)
            _ = try server.engine.render(frames: 480)
        }
        return (server, feed)
    }

    @Test func aFedSineTravelsAsOpusAndPlaysOnThePlayerWithoutAGapThenEnds() async throws {
        let (server, feed) = try Self.fedSine()
        feed.close()
        _ = try server.engine.render(frames: 4_800)
        let messages = try server.messages()
        let decoded = Self.decoded(messages)
        let packets = decoded.compactMap { message -> [UInt8]? in
            if case .streamPacket(_, _, _, let data) = message { data } else { nil }
        }
        #expect(packets.count == 100)
        let bytes = packets.reduce(0) { $0 + $1.count }
        let framed = packets.reduce(0) {
            $0
                + RemoteFraming.frame(
                    RemoteMessage.streamPacket(SoundID(rawValue: 0), sequence: 0, frame: 0, data: $1)
                        .encoded())!.count
        }
        print("stream: \(bytes / 2) bytes of Opus a second, \(framed / 2) bytes a second on the link")
        #expect(bytes / 2 <= 64_000 / 8 + 1_000)
        // The stream opens before its voice's play, and ends after its last packet.
        let open = try #require(decoded.firstIndex { if case .streamOpen = $0 { true } else { false } })
        let play = try #require(
            decoded.firstIndex { if case .command(.play, _) = $0 { true } else { false } })
        let end = try #require(decoded.firstIndex { if case .streamEnd(_, 100) = $0 { true } else { false } })
        #expect(open < play && play < end)

        let side = try RemoteTestPlayer()
        defer { side.close() }
        side.player.receive(messages)
        try await RemoteSessionTests.wait { side.player.report.streams.packets == 100 }
        try await RemoteSessionTests.wait { side.player.report.commands >= 2 }
        let played = try side.engine.render(frames: 48_000 * 3)
        let report = side.player.report
        side.finish()
        #expect(
            report.streams.opened == 1 && report.streams.concealed == 0 && report.streams.overflowFrames == 0)
        #expect(report.streams.underruns == 0 && report.streams.jitter == 0)
        let start = try #require(AudioAnalysis.onset(played, threshold: 0.05))
        print("stream: heard from frame \(start) of the player's render (the delay is 4800 frames)")
        // The game's voice began at its first render (frame 0), heard here after the 100 ms delay
        // (Opus's 6.5 ms of look-ahead shows as its first samples' quiet).
        #expect((4_800...5_300).contains(start), "began at \(start)")
        // No gap: every 10 ms of the 2 s holds the sine at its level.
        for window in stride(from: start + 480, to: start + 96_000 - 960, by: 480) {
            let level = AudioAnalysis.rms(played, channel: 0, frames: window..<(window + 480))
            #expect(level > 0.1, "a gap at frame \(window): RMS \(level)")
            if level <= 0.1 { break }
        }
        let middle = (start + 9_600)..<(start + 86_400)
        let tone = AudioAnalysis.amplitude(of: 440, in: played, frames: middle)
        let other = AudioAnalysis.amplitude(of: 880, in: played, frames: middle)
        #expect(tone > 0.15 && other < tone / 50, "440 Hz at \(tone), 880 Hz at \(other)")
        // What was sent played to its end; then the voice ended (the close's stop did not cut it).
        #expect(AudioAnalysis.rms(played, channel: 0, frames: (start + 94_000)..<(start + 95_000)) > 0.1)
        #expect(AudioAnalysis.rms(played, channel: 0, frames: (start + 97_500)..<(start + 120_000)) < 0.001)
        #expect(side.engine.activeVoiceCount == 0)
    }

    /// Counted run 60: a link stall left a fed stream's voice dry for 134 ms on the player, as the
    /// jitter buffer allows, but then the stop-all of the game's engine shutting down, placed at its
    /// time, cut the stream's last 134 ms. What the game sent is heard whole, the gap only moving it
    /// later.
    @Test func aStreamWhosePacketsCameLateIsHeardWholeAfterItsGapDespiteTheGamesClosingStopAll()
        async throws
    {
        let (server, feed) = try Self.fedSine()
        feed.close()
        _ = try server.engine.render(frames: 4_800)
        // The game's engine shuts down, which stops every voice (the stream's ended at its close).
        server.engine.stopAll()
        _ = try server.engine.render(frames: 480)
        let messages = try server.messages()
        let decoded = Self.decoded(messages)
        // The link holds everything after the stream's first 0.6 s until the player's 1 s.
        let held = try #require(
            decoded.firstIndex { if case .streamPacket(_, 30, _, _) = $0 { true } else { false } })
        #expect(decoded[held...].contains { if case .command(.stopAll, _) = $0 { true } else { false } })

        let side = try RemoteTestPlayer()
        defer { side.close() }
        side.player.receive(Array(messages[..<held]))
        try await RemoteSessionTests.wait { side.player.report.streams.packets == 30 }
        let before = try side.engine.render(frames: 48_000)
        let commands = side.player.report.commands
        side.player.receive(Array(messages[held...]))
        try await RemoteSessionTests.wait { side.player.report.streams.packets == 100 }
        try await RemoteSessionTests.wait { side.player.report.commands >= commands + 2 }
        let after = try side.engine.render(frames: 48_000 * 3)
        let played = PCMAudio(sampleRate: 48_000, channels: 2, samples: before.samples + after.samples)
        let report = side.player.report
        side.finish()
        #expect(report.streams.underruns == 1 && report.streams.concealed == 0 && report.late == 0)
        // Packet 30 came at the player's 1 s, 0.4 s after its frame; packet 29 at 0 s, 0.58 s before.
        #expect(abs(report.streams.jitter - 0.98) < 0.01, "jitter \(report.streams.jitter)")
        let start = try #require(AudioAnalysis.onset(played, threshold: 0.05))
        // 10 ms windows holding the sine: the whole 2 s, before the gap and after it.
        let windows = stride(from: start, to: played.frameCount - 480, by: 480).map {
            AudioAnalysis.rms(played, channel: 0, frames: $0..<($0 + 480)) > 0.1
        }
        let heard = windows.count { $0 }
        let resumed = try #require(windows.indices.dropFirst(10).first { !windows[$0 - 1] && windows[$0] })
        let last = try #require(windows.lastIndex(of: true))
        print("late stream: from frame \(start), \(heard) windows of 10 ms, again from \(resumed) to \(last)")
        // The gap: from 0.6 s into the stream until the held packets came at the player's 1 s.
        #expect((55...62).contains(windows.firstIndex(of: false) ?? 0))
        #expect(abs(start + resumed * 480 - 48_000) < 960, "resumed at frame \(start + resumed * 480)")
        #expect((197...200).contains(heard), "\(heard) windows of the 200 sent")
        #expect(last - resumed >= 137, "the stream's last \(140 - (last - resumed)) windows were cut")
        #expect(side.engine.activeVoiceCount == 0)
    }

    @Test func aStreamAtARateOpusDoesNotTakeIsResampledTo48kHzAndKeepsItsPitch() throws {
        let server = try Server()
        let feed = try server.engine.openFeed(channels: 2, sampleRate: 44_100)
        for piece in 0..<100 {
            let samples = (0..<441).flatMap { frame -> [Float] in
                let value = Float(0.5 * sin(2 * Double.pi * 440 * Double(piece * 441 + frame) / 44_100))
                return [value, -value]
            }
            #expect(feed.write(samples) == 441)
            _ = try server.engine.render(frames: 480)
        }
        feed.close()
        let decoded = Self.decoded(try server.messages())
        let decoder = try OpusPacketDecoder(channels: 2)
        var out: [Float] = []
        for message in decoded {
            if case .streamPacket(_, _, _, let data) = message { out += try decoder.decode(data) }
        }
        // One second at 44.1 kHz is 48,000 frames at 48 kHz: 50 packets, and a 51st filled with silence
        // when the resampler's rounding left a frame over.
        #expect((48_000...48_960).contains(out.count / 2), "\(out.count / 2) frames")
        let audio = PCMAudio(sampleRate: 48_000, channels: 2, samples: out)
        let left = AudioAnalysis.amplitude(of: 440, in: audio, frames: 4_800..<43_200)
        let right = AudioAnalysis.amplitude(of: 440, in: audio, frames: 4_800..<43_200, channel: 1)
        #expect(abs(left - 0.5) < 0.05 && abs(right - 0.5) < 0.05, "440 Hz at \(left), \(right)")
        #expect(AudioAnalysis.amplitude(of: 480, in: audio, frames: 4_800..<43_200) < 0.02)
    }
}
