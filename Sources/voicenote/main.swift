import Foundation
import Glibc
import VoiceNotes

// voicenote: record, list and play voice notes, or manage them on a full-screen view.

// A file-size limit (ulimit -f) must end a recording with an error the recorder reports and
// survives, not kill the process before it can keep what it wrote.
signal(SIGXFSZ, SIG_IGN)

do {
    try await Command.run(Array(CommandLine.arguments.dropFirst()))
} catch let error as CLIError {
    Console.error(error.description)
    exit(error.exitCode)
} catch let error as CustomStringConvertible {
    Console.error(error.description)
    exit(1)
} catch {
    Console.error("\(error)")
    exit(1)
}
