import CommandLineKit
import SoundStation

/// `soundstation devices`: what OpenAL can play to and record from.
enum DevicesCommand {
    static func run(_ arguments: inout Arguments) throws {
        try arguments.finish()
        print("playback:")
        for name in AudioEngine.playbackDevices() { print("  \(name.printable)") }
        print("capture:")
        for name in AudioEngine.captureDevices() { print("  \(name.printable)") }
    }
}
