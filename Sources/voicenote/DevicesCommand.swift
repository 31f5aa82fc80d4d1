import CommandLineKit
import SoundStation
import VoiceNotes

/// `voicenote devices`: what can be recorded from (for --device) and played to.
enum DevicesCommand {
    static func run(_ arguments: inout Arguments) throws {
        try arguments.finish()
        Console.out("capture devices (use with --device):")
        for name in VoiceNoteRecorder.captureDevices() { Console.out("  \(name)") }
        Console.out("playback devices (SOUNDSTATION_DEVICE):")
        for name in AudioEngine.playbackDevices() { Console.out("  \(name)") }
    }
}
