import CommandLineKit
import Glibc
import TerminalKit
import VoiceNotes

/// Unbuffered output: a script reading `voicenote record` through a pipe sees each line as it
/// happens, not when the process exits (or never, after `kill -9`).
enum Console {
    static func out(_ line: String) {
        StandardStream.output.write((line.printable + "\n"))
    }

    /// Writes without a newline, for a status line redrawn in place with `\r`.
    static func overwrite(_ text: String) {
        StandardStream.output.write(("\r" + text.printable + "\u{1B}[K"))
    }

    static func error(_ line: String) {
        StandardStream.error.write(("voicenote: " + line.printable + "\n"))
    }

    /// Whether stdout is a terminal that can take a redrawn status line.
    static var isTerminal: Bool { RawTerminal.isTerminal(StandardStream.output.fileDescriptor) }

    /// Bytes in B, KB or MB.
    static func size(_ bytes: Int) -> String {
        if bytes < 1_024 { return "\(bytes) B" }
        if bytes < 1_048_576 { return String(cFormat: "%.1f KB", Double(bytes) / 1_024) }
        return String(cFormat: "%.1f MB", Double(bytes) / 1_048_576)
    }

    /// A text level meter: `[########------]` for the peak over 60 dB.
    static func meter(_ level: InputLevel, width: Int = 24) -> String {
        let filled = Int((level.meterFraction() * Double(width)).rounded())
        return "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
            + "]"
    }

    /// Repairs and unreadable files found when a library opened, on stderr.
    static func report(_ library: VoiceNoteLibrary) {
        for repair in library.repairs { error(repair.description) }
        for problem in library.problems { error(problem) }
    }
}
