import CommandLineKit
import Foundation
import SoundStation

/// `soundstation play [--seconds S] [--assets DIR] EVENT...` on the real device (or the output that
/// SOUNDSTATION_OUTPUT names), until every cue has happened and every sound it started has ended.
enum PlayCommand {
    static func run(_ arguments: inout Arguments) async throws {
        let limit = try arguments.number("seconds", in: 0...86_400).map(Duration.seconds)
        let assets = try arguments.value("assets")
        let events = try arguments.positional()
        let catalogue = try Command.loadCatalogue(assets)
        let session = try CueSession(events, catalogue: catalogue)
        let engine = try AudioEngine.openWithFallback(.fromEnvironment()) { notice in
            FileHandle.standardError.write(Data("soundstation: notice: \(notice)\n".utf8))
        }
        engine.onEvent { event in
            switch event {
            case .deviceLost(let reason, let time):
                FileHandle.standardError.write(
                    Data(
                        "soundstation: device lost at \(String(format: "%.2f", time.inSeconds)) s (\(reason)); retrying\n"
                            .utf8))
            case .deviceRestored(let device, let time):
                FileHandle.standardError.write(
                    Data(
                        "soundstation: device restored at \(String(format: "%.2f", time.inSeconds)) s (\(device))\n"
                            .utf8))
            default: break
            }
        }
        try session.check(sampleRate: engine.sampleRate)
        engine.onNotice { notice in
            FileHandle.standardError.write(Data("soundstation: notice: \(notice)\n".utf8))
        }
        let stage = SoundSystem(engine: engine, catalogue: catalogue)
        try await session.preload(into: stage)
        print("playing on \(engine.output) (\(engine.deviceName))")
        let start = engine.time + .milliseconds(50)
        session.schedule(on: stage, offset: start)
        let musicForever = session.leavesMusicPlaying && limit == nil
        if musicForever { print("music plays until interrupted (Ctrl-C) or --seconds") }
        while true {
            try await Task.sleep(for: .milliseconds(20))
            let elapsed = engine.time - start
            if let limit, elapsed >= limit { break }
            if !musicForever, elapsed > session.lastCueTime + .milliseconds(50), engine.activeVoiceCount == 0
            {
                break
            }
        }
        print(String(format: "played %.2f s", (engine.time - start).inSeconds))
        engine.shutdown()
    }
}
