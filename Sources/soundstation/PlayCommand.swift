import CommandLineKit
import Glibc
import SoundStation

/// `soundstation play [--seconds S] [--assets DIR] [--watch] EVENT...` on the real device (or the
/// output that SOUNDSTATION_OUTPUT names), until every cue has happened and every sound it started has
/// ended; with `--watch`, until `--seconds` or Ctrl-C, loading edited assets again and printing one
/// line per reload.
enum PlayCommand {
    static func run(_ arguments: inout Arguments) async throws {
        let limit = try arguments.number("seconds", in: 0...86_400).map(Duration.seconds)
        let assets = try arguments.value("assets")
        let watch = try arguments.flag("watch")
        let events = try arguments.positional()
        let catalogue = try Command.loadCatalogue(assets)
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
        let musicForever = (session.leavesMusicPlaying || watch) && limit == nil
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
