import CommandLineKit
import Glibc
import SoundStation
import Synchronization
import TerminalKit
import VoiceNotes

/// `voicenote play FILE|NAME`: plays a note on the voice bus and returns when it has finished;
/// Space pauses and resumes, q stops.
enum PlayCommand {
    static func run(_ arguments: inout Arguments) async throws {
        let directory = try arguments.value("dir")
        let target = try arguments.single("FILE or NAME")
        let path = try resolve(target, directory: directory)
        let engine = try Command.engine()
        defer { engine.shutdown() }
        let player = VoiceNotePlayer(engine: engine)
        let finished = Mutex<PlaybackFinished?>(nil)
        player.onFinished { event in finished.withLock { $0 = $0 ?? event } }

        let keyboard = RawTerminal.isTerminal(STDIN_FILENO) ? RawTerminal() : nil
        let trap = SignalTrap()
        defer { trap.release(reraise: true) }
        try player.play(fileAt: path)
        try keyboard?.enterRawMode(fullScreen: false)
        defer { keyboard?.restore() }
        let duration = player.duration
        Console.out(
            "playing \(PathText.lastComponent(path)) (\(duration.clockText))"
                + (keyboard == nil ? "" : "; Space pauses and resumes, q stops"))

        while finished.withLock({ $0 }) == nil {
            if trap.caught != nil { player.stop() }
            if let keyboard {
                for key in keyboard.readKeys(timeout: 50) {
                    switch key {
                    case .space: player.togglePause()
                    case .character("q"), .escape, .interrupt: player.stop()
                    default: break
                    }
                }
            } else {
                try? await Task.sleep(for: .milliseconds(50))
            }
            if Console.isTerminal {
                let state = player.isPaused ? "  paused" : ""
                Console.overwrite(
                    "\(player.currentTime.clockText) / \(duration.clockText)\(state)"
                )
            }
        }
        if Console.isTerminal { Console.out("") }
        let event = finished.withLock { $0 }
        Console.out(event?.reason == .ended ? "finished" : "stopped")
    }

    /// A file path as given, or a note name looked up in the library (opened only then, so playing
    /// a file never creates the default folder).
    static func resolve(_ target: String, directory: String?) throws -> String {
        if target.contains("/") || FileSystem.exists(target) {
            guard FileSystem.exists(target) else {
                throw VoiceNoteError.unreadable(path: target, reason: "there is no such file")
            }
            return target
        }
        var arguments = Arguments(directory.map { ["--dir", $0] } ?? [])
        return try Command.library(&arguments).note(named: target).path
    }
}
