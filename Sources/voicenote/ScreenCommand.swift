import CommandLineKit
import VoiceNotes

/// `voicenote` or `voicenote screen`: the full-screen view.
enum ScreenCommand {
    static func run(_ arguments: inout Arguments) throws {
        let device = try arguments.value("device")
        let settings = try Command.settings(&arguments)
        let directory = try arguments.value("dir")
        try arguments.finish()
        let engine = try Command.engine()
        defer { engine.shutdown() }
        try VoiceNotesScreen(engine: engine, directory: directory, settings: settings, device: device).run()
    }
}
