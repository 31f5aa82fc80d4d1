import CommandLineKit
import Glibc
import SoundStation
import VoiceNotes

/// `voicenote info FILE|NAME`: format, rate, channels, duration, size and level of a note.
enum InfoCommand {
    static func run(_ arguments: inout Arguments) throws {
        let directory = try arguments.value("dir")
        let path = try PlayCommand.resolve(try arguments.single("FILE or NAME"), directory: directory)
        let note = try VoiceNote(path: path)
        let audio: PCMAudio
        do {
            // A CLI owns its terminal: a file cut short is said on standard error.
            audio = try AudioDecoder.decode(
                fileAt: path,
                options: DecodingOptions(warn: {
                    StandardStream.error.write("voicenote: warning: \($0.description.printable)\n")
                }))
        } catch {
            throw VoiceNoteError.unreadable(path: path, reason: error.description)
        }
        let level = InputLevel(measuring: audio.samples)
        let seconds = note.duration.inSeconds
        let bitrate = seconds > 0 ? Double(note.byteCount) * 8 / seconds / 1_000 : 0
        Console.out("file:      \(note.path)")
        Console.out("format:    \(note.format.displayName)")
        Console.out("rate:      \(note.sampleRate) Hz")
        Console.out("channels:  \(note.channels)")
        Console.out(
            "duration:  \(String(cFormat: "%.3f", note.duration.inSeconds)) s (\(audio.frameCount) frames)")
        Console.out(
            "size:      \(Console.size(note.byteCount)) (\(note.byteCount) bytes, \(String(cFormat: "%.1f", bitrate)) kbit/s)"
        )
        Console.out(
            "level:     peak \(String(cFormat: "%.1f", level.peak)) dBFS, RMS \(String(cFormat: "%.1f", level.rms)) dBFS"
        )
        Console.out("date:      \(note.date)")
    }
}
