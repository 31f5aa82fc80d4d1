import CommandLineKit
import Glibc
import SoundStation

/// `soundstation ssh [OPTIONS] [ssh options] [user@]host [command]`: runs the system's `ssh` under a
/// pseudo-terminal of its own, passes keys, window size and everything the server writes through
/// untouched, except the sound messages of a game using ``AudioOutput/remote``, which it removes
/// wherever they appear and plays on a local engine.
enum SSHCommand {
    struct Options {
        var output: AudioOutput?
        var delay: Duration = .milliseconds(80)
        var cacheDirectory: String?
        var cacheBytes = 256 << 20
        var stats: String?
        var quiet = false
        var sshProgram = "ssh"
        var sshArguments: [String] = []
    }

    static let usage = """
        usage: soundstation ssh [--output device|device:NAME|silent] [--delay MS] [--cache DIR]
                                [--cache-size MB] [--stats FILE] [--quiet] [ssh options] [user@]host [command]
        Runs ssh and plays the sound of a SoundStation game on the server here. Options before the
        ssh arguments; a game started by a command wants ssh's -t.
        """

    static func parse(_ words: [String]) throws -> Options {
        var options = Options()
        var index = 0
        func value(_ name: String) throws -> String {
            index += 1
            guard index < words.count else { throw CLIError.usage("\(name) needs a value") }
            return words[index]
        }
        loop: while index < words.count {
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
            case "--quiet": options.quiet = true
            case "--ssh": options.sshProgram = try value("--ssh")
            default: break loop
            }
            index += 1
        }
        options.sshArguments = Array(words[index...])
        guard !options.sshArguments.isEmpty else { throw CLIError.usage("no host given") }
        return options
    }

    static func run(_ words: [String]) throws -> Never {
        if words.first == "--help" || words.first == "-h" {
            print(usage)
            exit(0)
        }
        let options = try parse(words)
        let cache: AssetCache
        do { cache = try AssetCache(directory: options.cacheDirectory, maxBytes: options.cacheBytes) } catch {
            throw CLIError(error.description)
        }
        var notices: [String] = []
        // The player's own output: never remote (this may itself run in an SSH session).
        var environment = ProcessEnvironment.variables
        environment[RemoteAnnouncement.variable] = nil
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
        let engine = try AudioEngine(output: .offline(sampleRate: 48_000, channels: 2))
        let speaker: RemoteSpeaker
        do {
            speaker = try RemoteSpeaker(engine: engine, output: output)
        } catch {
            notices.append("\(error.description) Continuing without sound.")
            speaker = try RemoteSpeaker(engine: engine, output: .silent)
        }
        let held = cache.verify()
        let player = RemotePlayer(engine: engine, cache: cache, delay: options.delay, verified: held.sound)
        var announcement = RemoteAnnouncement()
        for hash in held.sound.prefix(RemoteAnnouncement.maxListed) {
            announcement.cached.insert(hash.shortHex)
        }
        for partial in cache.partials() { announcement.partial[partial.hash.shortHex] = partial.bytes }

        let session = try PTYSession(
            program: options.sshProgram,
            arguments: ["-o", "SendEnv=\(RemoteAnnouncement.variable)"] + options.sshArguments,
            environment: [RemoteAnnouncement.variable: announcement.value])
        var extractor = FrameExtractor()
        let status = session.run { bytes, now, text in
            var messages: [[UInt8]] = []
            if let bytes {
                extractor.feed(bytes, now: now, text: &text, messages: &messages)
            } else {
                extractor.flushHeld(into: &text)
            }
            player.receive(messages)
            return extractor.holdsBytes
        }
        player.finish()
        // Let what is buffered be heard: up to the last command's time and the end of its sounds
        // (at most 5 s more: music may loop forever).
        let deadline = ContinuousClock.now + .seconds(5)
        while ContinuousClock.now < deadline,
            engine.time.inSeconds < player.report.lastPlacedTime + 0.1 || engine.activeVoiceCount > 0
        {
            usleep(20_000)
        }
        usleep(UInt32(RemoteSpeaker.aheadFrames * 1_000_000 / engine.sampleRate) + 50_000)
        let report = player.report
        let counts = extractor.counts
        if let path = options.stats {
            let json = """
                {"accepted": \(counts.accepted), "malformed": \(counts.malformed), "oversized": \(counts.oversized), \
                "rateLimited": \(counts.rateLimited), "messages": \(report.messages), "undecodable": \(report.undecodable), \
                "commands": \(report.commands), "notArrived": \(report.notArrived), "late": \(report.late), \
                "unsupported": \(report.unsupported), "filesReceived": \(report.filesReceived), \
                "filesFromCache": \(report.filesFromCache), "refused": \(report.refused), "fileBytes": \(report.fileBytes), \
                "delayMs": \(report.delay * 1000), "jitterMs": \((report.maxLag ?? 0) * 1000), "ready": \(report.ready), \
                "output": "\(speaker.deviceName ?? "silent")", "underruns": \(speaker.underruns), "resyncs": \(report.resyncs), "cacheRemoved": \(held.removed), \
                "firstPlays": [\(report.firstPlays.map { "[\($0.frame), \($0.arrival), \($0.start)]" }.joined(separator: ", "))]}

                """
            try? FileSystem.writeAtomically(Array(json.utf8), to: path)
        }
        speaker.stop()
        engine.shutdown()
        if !options.quiet, counts.accepted + counts.dropped > 0 {
            var line =
                "soundstation ssh: \(report.commands) sound commands on \(speaker.deviceName ?? "silent"), delay \(Int(report.delay * 1000)) ms "
                + "(link jitter up to \(Int(((report.maxLag ?? 0) * 1000).rounded())) ms)"
                + "; files \(report.filesReceived) received, \(report.filesFromCache) from the cache"
            if report.late > 0 { line += "; \(report.late) late" }
            if report.notArrived > 0 { line += "; \(report.notArrived) refused (sound not arrived)" }
            if counts.dropped + report.undecodable + report.refused > 0 {
                line += "; dropped \(counts.dropped + report.undecodable) messages, refused \(report.refused)"
                if let reason = report.lastRefusal { line += " (last: \(reason))" }
            }
            printError(line)
            for notice in notices {
                printError("soundstation ssh: notice: \(notice)")
            }
        }
        exit(status)
    }
}

/// `soundstation cache [list|clear] [--cache DIR]`.
enum CacheCommand {
    static func run(_ arguments: inout Arguments) throws {
        let directory = try arguments.value("cache")
        let words = try arguments.positional()
        let cache: AssetCache
        do { cache = try AssetCache(directory: directory) } catch { throw CLIError(error.description) }
        switch words.first ?? "list" {
        case "list":
            let entries = cache.entries()
            for entry in entries {
                print("\(entry.fileName)  \(entry.size) bytes")
            }
            print("\(entries.count) files, \(entries.reduce(0) { $0 + $1.size }) bytes in \(cache.directory)")
        case "clear":
            let removed = cache.clear()
            print("removed \(removed.files) files, \(removed.bytes) bytes from \(cache.directory)")
        case let other: throw CLIError.usage("cache: unknown action \"\(other)\" (list or clear)")
        }
    }
}

/// One line on standard error, in one `write`.
private func printError(_ line: String) {
    var text = line + "\n"
    text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}
