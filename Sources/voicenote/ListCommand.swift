import CommandLineKit
import Glibc
import SoundStation
import VoiceNotes

/// `voicenote list [--dir DIR]`: the notes, newest first.
enum ListCommand {
    static func run(_ arguments: inout Arguments) throws {
        let library = try Command.library(&arguments)
        try arguments.finish()
        let notes = library.notes
        guard !notes.isEmpty else {
            Console.out("no voice notes in \(library.directory)")
            return
        }
        let width = max(24, notes.map(\.fileName.count).max() ?? 0)
        Console.out(pad("NAME", width) + "  DATE                  DURATION       SIZE")
        for note in notes {
            Console.out(
                pad(note.fileName, width) + "  "
                    + LocalTime.text(
                        secondsSince1970: note.date.timeIntervalSince1970, format: "%Y-%m-%d %H:%M:%S") + "  "
                    + leftPad(String(cFormat: "%.2f s", note.duration.inSeconds), 10) + "  "
                    + leftPad(Console.size(note.byteCount), 9))
        }
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.padded(toLength: max(width, text.count))
    }

    private static func leftPad(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }
}
