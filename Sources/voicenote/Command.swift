import CommandLineKit
import Glibc
import SoundStation
import VoiceNotes

/// Dispatches the subcommands and holds what several of them share.
enum Command {
    static let usage = """
        usage: voicenote [screen] [--dir DIR] [--device NAME] [--rate HZ] [--quality Q] [--format F]
               voicenote record [--seconds N] [--device NAME] [--dir DIR] [--rate HZ] [--quality Q]
                                [--channels 1|2] [--format ogg|wav]
               voicenote list [--dir DIR]
               voicenote play FILE|NAME [--dir DIR]
               voicenote info FILE|NAME [--dir DIR]
               voicenote rename NAME NEW-NAME [--dir DIR]       (also: mv)
               voicenote delete NAME... [--dir DIR]             (also: rm)
               voicenote devices
               voicenote --help | --version
        Q: low, medium, high (default) or max. Notes live in --dir, else
        $XDG_DATA_HOME/soundstation/voice-notes, else ~/.local/share/soundstation/voice-notes.
        record stops at Enter (or q), after N seconds of audio, or at SIGINT/SIGTERM; play pauses and
        resumes at Space and stops at q. rename keeps the extension and never replaces a note; neither
        rename nor delete touches a recording still running. On the screen: r records, Enter plays,
        n renames, d deletes, q quits. Output: SOUNDSTATION_OUTPUT=device|silent, SOUNDSTATION_DEVICE.
        """

    /// The program's name, usage text and error style.
    static let program = CommandLineProgram(
        name: "voicenote", usage: usage, version: LibraryVersion.string)

    static func run(_ words: [String]) async throws {
        let name = words.first ?? "screen"
        var arguments = Arguments(Array(words.dropFirst()))
        if arguments.help() {
            program.printUsage()
            return
        }
        switch name {
        case "screen": try ScreenCommand.run(&arguments)
        case "record": try await RecordCommand.run(&arguments)
        case "list", "ls": try ListCommand.run(&arguments)
        case "play": try await PlayCommand.run(&arguments)
        case "info": try InfoCommand.run(&arguments)
        case "rename", "mv": try RenameCommand.run(&arguments)
        case "rm", "delete": try RemoveCommand.run(&arguments)
        case "devices": try DevicesCommand.run(&arguments)
        case "help", "--help", "-h": program.printUsage()
        default:
            if name.hasPrefix("--") {
                // `voicenote --dir DIR` opens the screen on that folder.
                var all = Arguments(words)
                try ScreenCommand.run(&all)
            } else {
                throw CLIError.usage("unknown command \"\(name)\"")
            }
        }
    }

    /// The library in `--dir`, or the default folder; repairs are reported on stderr.
    static func library(_ arguments: inout Arguments) throws -> VoiceNoteLibrary {
        let library = try VoiceNoteLibrary(directory: try arguments.value("dir"))
        Console.report(library)
        return library
    }

    /// Recording settings from `--rate`, `--channels`, `--quality` and `--format`.
    static func settings(_ arguments: inout Arguments) throws(CLIError) -> VoiceNoteSettings {
        var settings = VoiceNoteSettings()
        let rates = VoiceNoteSettings.sampleRates
        if let rate = try arguments.integer("rate", in: rates.lowerBound...rates.upperBound) {
            settings.sampleRate = rate
        }
        if let channels = try arguments.integer("channels", in: 1...2) { settings.channels = channels }
        if let text = try arguments.value("quality") {
            guard let quality = VoiceNoteQuality(rawValue: text.lowercased()) else {
                throw .usage("--quality \(text): use low, medium, high or max")
            }
            settings.quality = quality
        }
        if let text = try arguments.value("format") {
            guard let format = VoiceNoteFormat(fileExtension: text) else {
                throw .usage("--format \(text): use ogg or wav")
            }
            settings.format = format
        }
        return settings
    }

    /// The output engine named by the environment, falling back to silence with a notice.
    static func engine() throws -> AudioEngine {
        try AudioEngine.openWithFallback(.fromEnvironment()) { Console.error("notice: \($0)") }
    }
}
