import CommandLineKit
import Glibc
import TerminalKit
import VoiceNotes

/// `voicenote record [--seconds N] [--device NAME] [--dir DIR] [--rate HZ] [--quality Q]`: records
/// until Enter (or q), N seconds of audio, or a signal, with a live level meter.
enum RecordCommand {
    static func run(_ arguments: inout Arguments) async throws {
        let seconds = try arguments.number("seconds", in: 0.001...86_400)
        let device = try arguments.value("device")
        let settings = try Command.settings(&arguments)
        let library = try Command.library(&arguments)
        try arguments.finish()

        let recorder = VoiceNoteRecorder(library: library, settings: settings, device: device)
        // Without a terminal on stdin there are no keys to read: the recording runs to its length
        // or until a signal.
        let keyboard = RawTerminal.isTerminal(STDIN_FILENO) ? RawTerminal() : nil
        let trap = SignalTrap()
        defer { trap.release(reraise: true) }
        let name = try recorder.start(limit: seconds.map(Duration.seconds))
        try keyboard?.enterRawMode(fullScreen: false)
        defer { keyboard?.restore() }

        // The line below promises that sound is being captured, so it waits for the first samples.
        if Console.isTerminal { Console.overwrite("starting \(recorder.status.device ?? "the device")...") }
        while recorder.isRecording && !recorder.status.inputStarted && trap.caught == nil {
            try await Task.sleep(for: .milliseconds(10))
        }
        let status = recorder.status
        let until =
            seconds.map { "for \($0) s" }
            ?? (keyboard == nil ? "until SIGINT or SIGTERM" : "until Enter")
        if Console.isTerminal { Console.overwrite("") }
        Console.out(
            "recording \(name) to \(status.path ?? library.directory) from \"\(status.device ?? "default")\" "
                + "(\(settings.sampleRate) Hz, \(settings.channels) ch, \(settings.format.displayName), "
                + "quality \(settings.quality.rawValue)) \(until)")
        await watch(recorder, keyboard: keyboard, trap: trap)

        let note: VoiceNote
        do {
            note = try recorder.stop()
        } catch {
            if Console.isTerminal { Console.out("") }
            throw error
        }
        if Console.isTerminal { Console.out("") }
        Console.out(
            "saved \(note.fileName): \(String(cFormat: "%.3f", note.duration.inSeconds)) s, \(note.sampleRate) Hz, "
                + "\(note.channels) ch, \(Console.size(note.byteCount)) -> \(note.path)")
    }

    /// Shows the meter until the recording ends by itself, a stop key is pressed, or a signal comes.
    private static func watch(_ recorder: VoiceNoteRecorder, keyboard: RawTerminal?, trap: SignalTrap) async {
        var lastLine = -1
        while recorder.isRecording, trap.caught == nil {
            if let keyboard {
                let keys = keyboard.readKeys(timeout: 50)
                if keys.contains(where: { [.enter, .escape, .interrupt, .character("q")].contains($0) }) {
                    return
                }
            } else {
                try? await Task.sleep(for: .milliseconds(50))
            }
            let status = recorder.status
            let text =
                "\(status.elapsed.clockText)  \(Console.meter(status.level))  "
                + String(cFormat: "peak %6.1f dB  RMS %6.1f dB  ", status.level.peak, status.level.rms)
                + Console.size(status.bytesWritten)
            if Console.isTerminal {
                Console.overwrite(text)
            } else if Int(status.elapsed.inSeconds) > lastLine {
                // A log gets one line a second rather than twenty.
                lastLine = Int(status.elapsed.inSeconds)
                Console.out(text)
            }
        }
    }
}
