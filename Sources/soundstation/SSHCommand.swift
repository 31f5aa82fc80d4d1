import CommandLineKit
import Glibc
import SoundStation
import SoundStationPlayer

/// `soundstation ssh [OPTIONS] [ssh options] [user@]host [command]`: runs the system's `ssh` under a
/// pseudo-terminal of its own, passes keys, window size and everything the server writes through
/// untouched, except the sound messages of a game using ``AudioOutput/remote``, which it removes
/// wherever they appear and plays on a local engine.
enum SSHCommand {
    struct Options {
        var player = PlayerSide.Options()
        var socket = false
        var sshProgram = "ssh"
        var sshArguments: [String] = []
    }

    static let usage = """
        usage: soundstation ssh [--socket] [--output device|device:NAME|silent] [--delay MS] [--cache DIR]
                                [--cache-size MB] [--stats FILE] [--record FILE] [--quiet]
                                [ssh options] [user@]host [command]
        Runs ssh and plays the sound of a SoundStation game on the server here. Options before the
        ssh arguments; a game started by a command wants ssh's -t. --socket also forwards a socket
        (ssh -R) for servers that pass no LC_* variable and for games inside tmux or screen there.
        """

    static func parse(_ words: [String]) throws -> Options {
        var options = Options()
        var index = 0
        loop: while index < words.count {
            if try PlayerSide.parse(words, at: &index, into: &options.player) {
                index += 1
                continue
            }
            switch words[index] {
            case "--socket": options.socket = true
            case "--ssh":
                index += 1
                guard index < words.count else { throw CLIError.usage("--ssh needs a value") }
                options.sshProgram = words[index]
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
        let side = try PlayerSide(options.player, name: "ssh")
        var arguments = ["-o", "SendEnv=\(RemoteAnnouncement.variable)"]
        var listener: SocketListener?
        if options.socket {
            let local = try SocketListener(path: nil)
            // A word of its own keeps this session's socket apart from the user's others.
            let token = String(UInt64.random(in: 0...UInt64.max), radix: 16)
            arguments += ["-R", "\(RemoteSocket.forwardedPath(token: token)):\(local.path)"]
            local.start(side)
            listener = local
        }
        let session = try PTYSession(
            program: options.sshProgram, arguments: arguments + options.sshArguments,
            environment: [RemoteAnnouncement.variable: side.announcement().value])
        var extractor = FrameExtractor()
        side.readsTheLink()
        let status = session.run { bytes, now, text in
            var messages: [[UInt8]] = []
            if let bytes {
                extractor.feed(bytes, now: now, text: &text, messages: &messages)
            } else {
                extractor.flushHeld(into: &text)
            }
            side.receive(messages)
            return extractor.holdsBytes
        }
        listener?.stop()
        side.finish(terminalCounts: extractor.counts)
        exit(status)
    }
}

/// `soundstation listen [--socket PATH] [--sessions N] [player options]`: plays the sound of games
/// that reach this machine through a socket forwarded by any ssh (`ssh -R
/// /tmp/soundstation-%r-NAME.sock:PATH host`), for a player who runs ssh (or another client) as
/// usual.
enum ListenCommand {
    static let usage = """
        usage: soundstation listen [--socket PATH] [--sessions N] [--output device|device:NAME|silent]
                                   [--delay MS] [--cache DIR] [--cache-size MB] [--stats FILE]
                                   [--record FILE] [--quiet]
        Plays the sound of SoundStation games that connect through a forwarded socket, until Ctrl-C
        (or N game sessions ended). Connect with the ssh -R option it prints.
        """

    static func run(_ words: [String]) throws -> Never {
        if words.first == "--help" || words.first == "-h" {
            print(usage)
            exit(0)
        }
        var options = PlayerSide.Options()
        var socketPath: String?
        var sessions: Int?
        var index = 0
        while index < words.count {
            if try PlayerSide.parse(words, at: &index, into: &options) {
                index += 1
                continue
            }
            switch words[index] {
            case "--socket":
                index += 1
                guard index < words.count else { throw CLIError.usage("--socket needs a value") }
                socketPath = words[index]
            case "--sessions":
                index += 1
                guard index < words.count, let count = Int(words[index]), count > 0 else {
                    throw CLIError.usage("--sessions needs a whole number above 0")
                }
                sessions = count
            default: throw CLIError.usage("listen: unknown argument \"\(words[index])\"")
            }
            index += 1
        }
        let side = try PlayerSide(options, name: "listen")
        let listener = try SocketListener(path: socketPath)
        let ended = Locked(0)
        listener.start(side) { ended.withLock { $0 += 1 } }
        let token = String(UInt64.random(in: 0...UInt64.max), radix: 16)
        if !options.quiet {
            printError("soundstation listen: playing games that connect to \(listener.path)")
            printError(
                "  connect with: ssh -R \(RemoteSocket.forwardedPath(token: token)):\(listener.path) [user@]host"
            )
        }
        let trap = SignalCatcher()
        var interrupt = sigaction()
        interrupt.__sigaction_handler.sa_handler = { _ in SignalCatcher.flag = 1 }
        sigemptyset(&interrupt.sa_mask)
        sigaction(SIGINT, &interrupt, nil)
        while !trap.caught {
            if let sessions, ended.withLock({ $0 }) >= sessions { break }
            usleep(50_000)
        }
        listener.stop()
        side.finish(terminalCounts: FrameExtractor.Counts())
        exit(0)
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
                print("\(entry.fileName.printable)  \(entry.size) bytes")
            }
            print(
                "\(entries.count) files, \(entries.reduce(0) { $0 + $1.size }) bytes in \(cache.directory.printable)"
            )
        case "clear":
            let removed = cache.clear()
            print("removed \(removed.files) files, \(removed.bytes) bytes from \(cache.directory.printable)")
        case let other: throw CLIError.usage("cache: unknown action \"\(other)\" (list or clear)")
        }
    }
}
