import CommandLineKit
import Glibc
import SoundStation
import SoundStationPlayer

/// What `soundstation ssh` and `soundstation listen` share: the options of the player's side, the
/// local engine and speaker, the cache, the ``RemotePlayer`` and the summary at the end.
final class PlayerSide: @unchecked Sendable {
    struct Options {
        var output: AudioOutput?
        var delay: Duration = .milliseconds(80)
        var cacheDirectory: String?
        var cacheBytes = 256 << 20
        var stats: String?
        var record: String?
        var quiet = false
    }

    /// Reads one of the player's options at `words[index]` (moving `index` past its value); returns
    /// false when the word is not one of them.
    static func parse(_ words: [String], at index: inout Int, into options: inout Options) throws -> Bool {
        func value(_ name: String) throws -> String {
            index += 1
            guard index < words.count else { throw CLIError.usage("\(name) needs a value") }
            return words[index]
        }
        switch words[index] {
        case "--output":
            let text = try value("--output")
            switch text {
            case "device": options.output = .device(latency: .low)
            case "silent": options.output = .silent
            case let named where named.hasPrefix("device:"):
                options.output = .device(name: String(named.dropFirst(7)), latency: .low)
            default: throw CLIError.usage("--output \"\(text)\": expected device, device:NAME or silent")
            }
        case "--delay":
            let text = try value("--delay")
            guard let ms = Double(text), (0...2000).contains(ms) else {
                throw CLIError.usage("--delay \"\(text)\": expected milliseconds from 0 to 2000")
            }
            options.delay = .milliseconds(Int64(ms))
        case "--cache": options.cacheDirectory = try value("--cache")
        case "--cache-size":
            let text = try value("--cache-size")
            guard let mb = Int(text), (1...65_536).contains(mb) else {
                throw CLIError.usage("--cache-size \"\(text)\": expected megabytes from 1 to 65536")
            }
            options.cacheBytes = mb << 20
        case "--stats": options.stats = try value("--stats")
        case "--record": options.record = try value("--record")
        case "--quiet": options.quiet = true
        default: return false
        }
        return true
    }

    let options: Options
    let name: String
    let cache: AssetCache
    let engine: AudioEngine
    let speaker: RemoteSpeaker
    let player: RemotePlayer
    let cacheRemoved: Int
    private(set) var notices: [String] = []
    private let recording: Int32
    private let recordLock = Locked(())
    /// Frames counted by the socket listener (the terminal's extractor counts its own).
    let socketCounts = Locked(FrameExtractor.Counts())
    /// Bytes on a socket that were not part of a frame (dropped).
    let strayBytes = Locked(0)
    /// Why a thread reading the game's link runs in the normal class (`nil`: each runs real-time).
    private let linkRefusal = Locked<String?>(nil)

    /// Called by each thread that reads the game's link (the terminal's loop, the socket listener)
    /// before it reads: asks for the real-time class for it where the machine grants it, as the
    /// speaker's thread does. A message read late is placed late, and in the normal class, beside two
    /// busy loops on 2 cores, the reader waited up to 184 ms for a core, twice the jitter buffer.
    func readsTheLink() {
        if let refused = PosixThread.requestRealTimeForItself() { linkRefusal.withLock { $0 = refused } }
    }

    /// Opens the cache (checking every file against its hash), the local engine and the player.
    init(_ options: Options, name: String) throws {
        self.options = options
        self.name = name
        do { cache = try AssetCache(directory: options.cacheDirectory, maxBytes: options.cacheBytes) } catch {
            throw CLIError(error.description)
        }
        // The player's own output: never remote (this may itself run in an SSH session).
        var environment = ProcessEnvironment.variables
        environment[RemoteAnnouncement.variable] = nil
        environment[RemoteSocket.variable] = nil
        environment["SSH_CONNECTION"] = nil
        environment["TMUX"] = nil
        environment["STY"] = nil
        var output = options.output ?? .device(latency: .low)
        if options.output == nil {
            do {
                output = try AudioOutput.fromEnvironment(
                    default: .device(latency: .low), environment: environment)
            } catch {
                notices.append(error.description)
            }
        }
        if output == .remote { output = .device(latency: .low) }
        // The mix is rendered offline, sample-exact, and played on the device by the speaker, which
        // renders ahead: a sound server buffer of 100 ms costs no precision and rides out a busy
        // machine (the player's own PULSE_LATENCY_MSEC wins).
        setenv("PULSE_LATENCY_MSEC", "100", 0)
        engine = try AudioEngine(output: .offline(sampleRate: 48_000, channels: 2))
        do {
            speaker = try RemoteSpeaker(engine: engine, output: output)
        } catch {
            notices.append("\(error.description) Continuing without sound.")
            speaker = try RemoteSpeaker(engine: engine, output: .silent)
        }
        let held = cache.verify()
        cacheRemoved = held.removed
        let speaker = self.speaker
        player = RemotePlayer(
            engine: engine, cache: cache, delay: options.delay, verified: held.sound,
            arrivalClock: { speaker.arrivalTime })
        if let path = options.record {
            recording = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            guard recording >= 0 else {
                throw CLIError("--record \(path): \(String(cString: strerror(errno)))")
            }
        } else {
            recording = -1
        }
    }

    /// The announcement of what the cache holds now (files received this session included).
    func announcement() -> RemoteAnnouncement {
        var announcement = RemoteAnnouncement()
        for entry in cache.entries().prefix(RemoteAnnouncement.maxListed) {
            announcement.cached.insert(entry.hash.shortHex)
        }
        for partial in cache.partials() { announcement.partial[partial.hash.shortHex] = partial.bytes }
        return announcement
    }

    /// Hands messages to the player (and to the `--record` file: each one as its length, 4 bytes
    /// little-endian, then its bytes).
    func receive(_ messages: [[UInt8]]) {
        guard !messages.isEmpty else { return }
        if recording >= 0 {
            recordLock.withLock { _ in
                for message in messages {
                    let count = UInt32(message.count)
                    var bytes: [UInt8] = [
                        UInt8(count & 0xFF), UInt8(count >> 8 & 0xFF), UInt8(count >> 16 & 0xFF),
                        UInt8(count >> 24),
                    ]
                    bytes += message
                    _ = bytes.withUnsafeBytes { write(recording, $0.baseAddress, $0.count) }
                }
            }
        }
        player.receive(messages)
    }

    /// Lets what is buffered be heard, writes `--stats`, stops the engine and prints the summary.
    func finish(terminalCounts: FrameExtractor.Counts) {
        player.finish()
        // Up to the last command's time and the end of its sounds (at most 5 s more: music may loop
        // forever).
        let deadline = ContinuousClock.now + .seconds(5)
        while ContinuousClock.now < deadline,
            engine.time.inSeconds < player.report.lastPlacedTime + 0.1 || engine.activeVoiceCount > 0
        {
            usleep(20_000)
        }
        // Everything rendered so far goes through the device (however far a busy machine held it
        // back), then through the sound server's buffer (100 ms, PULSE_LATENCY_MSEC above), so the
        // last sound is heard whole and at its time before the stream closes.
        let rendered = Int(engine.time.inSeconds * Double(engine.sampleRate))
        _ = speaker.waitUntilPlayed(frame: rendered, timeout: .seconds(5))
        usleep(200_000)
        if recording >= 0 { close(recording) }
        let report = player.report
        var counts = terminalCounts
        let socket = socketCounts.withLock { $0 }
        counts.accepted += socket.accepted
        counts.malformed += socket.malformed
        counts.oversized += socket.oversized
        counts.rateLimited += socket.rateLimited
        let stray = strayBytes.withLock { $0 }
        if let path = options.stats {
            let json = """
                {"accepted": \(counts.accepted), "malformed": \(counts.malformed), "oversized": \(counts.oversized), \
                "rateLimited": \(counts.rateLimited), "messages": \(report.messages), "undecodable": \(report.undecodable), \
                "commands": \(report.commands), "notArrived": \(report.notArrived), "waitedForLoad": \(report.waitedForLoad), "hurriedLoads": \(report.hurriedLoads), "late": \(report.late), \
                "filesReceived": \(report.filesReceived), \
                "filesFromCache": \(report.filesFromCache), "refused": \(report.refused), "fileBytes": \(report.fileBytes), \
                "delayMs": \(report.delay * 1000), "jitterMs": \((report.maxLag ?? 0) * 1000), "ready": \(report.ready), \
                "output": "\(speaker.deviceName ?? "silent")", "underruns": \(speaker.underruns), "realTime": \(speaker.notRealTime == nil), "linkRealTime": \(linkRefusal.withLock { $0 } == nil && player.workerNotRealTime == nil), "skippedMs": \(speaker.skippedFrames * 1000 / engine.sampleRate), "heldUp": \(speaker.heldUp), "resyncs": \(report.resyncs), "lateMessages": \(report.lateMessages), "cacheRemoved": \(cacheRemoved), \
                "sessions": \(report.sessions), "socketFrames": \(socket.accepted), "strayBytes": \(stray), \
                "overBudget": {\(report.overBudget.sorted { $0.key < $1.key }.map { "\"\($0.key.rawValue)\": \($0.value)" }.joined(separator: ", "))}, \
                "held": {"decodedBytes": \(report.held.decodedBytes), "peakDecodedBytes": \(report.held.peakDecodedBytes), \
                "entries": \(report.held.entries), "names": \(report.held.names), "nameBytes": \(report.held.nameBytes), \
                "pendingCommands": \(report.held.pendingCommands), "scheduledCommands": \(report.held.scheduledCommands)}, \
                "streams": {"opened": \(report.streams.opened), "packets": \(report.streams.packets), \
                "bytes": \(report.streams.bytes), "concealed": \(report.streams.concealed), \
                "undecodable": \(report.streams.undecodable), "overflowFrames": \(report.streams.overflowFrames), \
                "underruns": \(report.streams.underruns), "jitterMs": \(report.streams.jitter * 1000)}, \
                "firstPlays": [\(report.firstPlays.map { "[\($0.frame), \($0.arrival), \($0.start)]" }.joined(separator: ", "))], \
                "latePlays": [\(report.latePlays.map { "[\($0.frame), \($0.by)]" }.joined(separator: ", "))]}

                """
            try? FileSystem.writeAtomically(Array(json.utf8), to: path)
        }
        speaker.stop()
        engine.shutdown()
        if !options.quiet, counts.accepted + counts.dropped > 0 {
            var line =
                "soundstation \(name): \(report.commands) sound commands on \(speaker.deviceName ?? "silent"), delay \(Int(report.delay * 1000)) ms "
                + "(link jitter up to \(Int(((report.maxLag ?? 0) * 1000).rounded())) ms)"
                + "; files \(report.filesReceived) received, \(report.filesFromCache) from the cache"
            if socket.accepted > 0 { line += "; through the socket" }
            if report.late > 0 { line += "; \(report.late) late" }
            if report.streams.opened > 0 {
                line +=
                    "; fed streams \(report.streams.opened) (\(report.streams.packets) packets, "
                    + "\(report.streams.underruns) underruns)"
            }
            if report.notArrived > 0 { line += "; \(report.notArrived) refused (sound not arrived)" }
            if counts.dropped + report.undecodable + report.refused > 0 || stray > 0 {
                line += "; dropped \(counts.dropped + report.undecodable) messages, refused \(report.refused)"
                if stray > 0 { line += ", \(stray) stray bytes" }
                if let reason = report.lastRefusal { line += " (last: \(reason))" }
            }
            line += Self.overBudget(report, budget: player.budget)
            printError(line)
        }
        if !options.quiet {
            for notice in notices {
                printError("soundstation \(name): notice: \(notice)")
            }
        }
    }
}

extension PlayerSide {
    /// The summary's words on what was refused for being beyond the budget, once for the session
    /// (not a line per item): e.g. `; beyond its budget (Docs/ssh.md): refused 118 sound loads
    /// (decoded sound 256 MiB)`; empty when nothing was.
    static func overBudget(_ report: RemotePlayer.Report, budget: RemoteBudget) -> String {
        guard !report.overBudget.isEmpty else { return "" }
        let words: [RemoteBudget.Resource: String] = [
            .decoded: "sound loads", .entries: "catalogue entries", .names: "sound names",
            .pending: "commands waiting for a sound", .queued: "messages", .streams: "streams",
        ]
        let parts = report.overBudget.sorted { $0.key < $1.key }.map { resource, count in
            "\(count) \(words[resource]!) (\(resource.rawValue) \(budget.limit(of: resource)))"
        }
        return "; beyond its budget (see Docs/ssh.md), refused " + parts.joined(separator: ", ")
            + "; played what it had"
    }
}

/// One line on standard error, in one `write`: made printable first, since it may carry names and
/// reasons a server chose (``TerminalSafe``).
func printError(_ line: String) {
    var text = line.printable + "\n"
    text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}
