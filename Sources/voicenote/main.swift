import CommandLineKit
import Glibc
import VoiceNotes

// voicenote: record, list and play voice notes, or manage them on a full-screen view.

// A file-size limit (ulimit -f) must end a recording with an error the recorder reports and
// survives, not kill the process before it can keep what it wrote.
signal(SIGXFSZ, SIG_IGN)

await Command.program.main {
    try await Command.run(Array(CommandLine.arguments.dropFirst()))
    return 0
}
