import CommandLineKit
import Glibc
import SoundStation

/// `soundstation play [--seconds S] [--assets DIR] [--watch] EVENT...` (or `play FILE [--track N]
/// [--soundfont F]`: one song file, played once) on the real device (or the
/// output that SOUNDSTATION_OUTPUT names), until every cue has happened and every sound it started has
/// ended; with `--watch`, until `--seconds` or Ctrl-C, loading edited assets again and printing one
/// line per reload.
enum PlayCommand {
    /// `soundstation play FILE [--track N] [--soundfont F]`: one sound file (a MIDI song, a chiptune
    /// rip, a module, any format the engine reads) played once as music, with a catalogue of its own
    /// rooted at `/`; nil when the arguments are events.
    static func songFile(_ events: [String], track: Int?, soundFont: String?) throws -> Catalogue? {
        guard events.count == 1, let file = realPath(events[0]) else { return nil }
        var members = [
            "\"name\": \(JSONValue.string(PathText.lastComponent(file)).text())",
            "\"path\": \(JSONValue.string(String(file.dropFirst())).text())",
            "\"kind\": \"music\"", "\"loop\": false", "\"stream\": true",
        ]
        if let track { members.append("\"track\": \(track)") }
        if let soundFont {
            guard let font = realPath(soundFont) else {
                throw CLIError("no SoundFont at \(soundFont.printable)")
            }
            members.append("\"soundfont\": \(JSONValue.string(String(font.dropFirst())).text())")
        }
        let json = "{\"sounds\": [{" + members.joined(separator: ", ") + "}]}"
        return try Catalogue(json: Array(json.utf8), root: "/", manifestName: "the command line")
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = Glibc.realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    static func run(_ arguments: inout Arguments) async throws {
        let limit = try arguments.number("seconds", in: 0...86_400).map(Duration.seconds)
        let assets = try arguments.value("assets")
        let watch = try arguments.flag("watch")
        let track = try arguments.integer("track", in: 1...Int(Int32.max))
        let soundFont = try arguments.value("soundfont")
        var events = try arguments.positional()
        let catalogue: Catalogue
        // A song file plays once and the command returns at its end.
        var songOnce = false
        if let song = try songFile(events, track: track, soundFont: soundFont) {
            catalogue = song
            events = ["0:music:\(song.entries[0].name)"]
            songOnce = true
        } else {
            guard track == nil, soundFont == nil else {
                throw CLIError(
                    "--track and --soundfont go with a song file: soundstation play FILE [--track N]")
            }
            catalogue = try Command.loadCatalogue(assets)
        }
        let session = try CueSession(events, catalogue: catalogue)
        let engine = try AudioEngine.openWithFallback(.fromEnvironment()) { notice in
            StandardStream.error.write("soundstation: notice: \(notice.printable)\n")
        }
        engine.onEvent { event in
            switch event {
            case .deviceLost(let reason, let time):
                StandardStream.error.write(
                    "soundstation: device lost at \(String(cFormat: "%.2f", time.inSeconds)) s (\(reason.printable)); retrying\n"
                )
            case .deviceRestored(let device, let time):
                StandardStream.error.write(
                    "soundstation: device restored at \(String(cFormat: "%.2f", time.inSeconds)) s (\(device.printable))\n"
                )
            default:
                // Reports of the watch, one line each, unbuffered so a pipe or log sees them at once.
                if let line = event.reloadMessage {
                    StandardStream.output.write("soundstation: \(line.printable)\n")
                }
            }
        }
        try session.check(sampleRate: engine.sampleRate)
        engine.onNotice { notice in
            StandardStream.error.write("soundstation: notice: \(notice.printable)\n")
        }
        let stage = SoundSystem(engine: engine, catalogue: catalogue)
        try await session.preload(into: stage)
        let watching = watch ? try stage.bank.watch() : nil
        print("playing on \(engine.output) (\(engine.deviceName.printable))")
        if let watching {
            print(
                "watching \(watching.folders.joined(separator: ", ").printable) until interrupted (Ctrl-C) or --seconds"
            )
        }
        let start = engine.time + .milliseconds(50)
        session.schedule(on: stage, offset: start)
        let musicForever = (session.leavesMusicPlaying && !songOnce || watch) && limit == nil
        if musicForever, !watch { print("music plays until interrupted (Ctrl-C) or --seconds") }
        while true {
            try await Task.sleep(for: .milliseconds(20))
            let elapsed = engine.time - start
            if let limit, elapsed >= limit { break }
            if !musicForever, !watch, elapsed > session.lastCueTime + .milliseconds(50),
                engine.activeVoiceCount == 0
            {
                break
            }
        }
        watching?.cancel()
        print(String(cFormat: "played %.2f s", (engine.time - start).inSeconds))
        engine.shutdown()
    }
}
