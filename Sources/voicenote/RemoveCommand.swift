import CommandLineKit
import VoiceNotes

/// `voicenote delete NAME...` (or `rm`): deletes notes by name; names that could leave the folder,
/// and recordings still running, are refused.
enum RemoveCommand {
    static func run(_ arguments: inout Arguments) throws {
        let library = try Command.library(&arguments)
        let names = try arguments.positional()
        guard !names.isEmpty else { throw CLIError.usage("delete needs the name of a note") }
        for name in names {
            let note = try library.note(named: name)
            try library.delete(name)
            Console.out("removed \(note.fileName)")
        }
    }
}

/// `voicenote rename NAME NEW-NAME`: renames a note, keeping its extension.
enum RenameCommand {
    static func run(_ arguments: inout Arguments) throws {
        let library = try Command.library(&arguments)
        let names = try arguments.positional()
        guard names.count == 2 else { throw CLIError.usage("rename needs a note's name and its new name") }
        let note = try library.rename(names[0], to: names[1])
        Console.out("renamed \(names[0]) to \(note.fileName)")
    }
}
