import CommandLineKit
import Glibc
import SoundStation
import VoiceNotes

// Screens that other targets provide (see ExternalScreens.swift). The voice-notes screen gets an
// engine of its own: the game's is paused while the screen is open, and notes must still play.
let screens = ExternalScreens(openVoiceNotes: {
    do {
        let output = (try? AudioOutput.fromEnvironment()) ?? .device()
        let engine = try AudioEngine.openWithFallback(output) { Console.report("voice notes: \($0)") }
        defer { engine.shutdown() }
        try VoiceNotesScreen(engine: engine).run()
    } catch {
        Console.report("voice notes: \(error)")
    }
})

await Options.program.main {
    let options = try Options.parse(Array(CommandLine.arguments.dropFirst()))
    if options.help { return Options.program.printUsage() }
    return await Launcher.run(options, screens: screens)
}
