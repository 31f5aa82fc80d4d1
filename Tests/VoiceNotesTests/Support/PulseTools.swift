import Foundation

/// The private PulseAudio server of `make test` and the command-line tools used with it.
enum PulseTools {
    /// Device tests run only under `Scripts/with-pulse.sh`, which sets PULSE_SERVER.
    static var isAvailable: Bool { ProcessInfo.processInfo.environment["PULSE_SERVER"] != nil }

    /// Runs a program to completion and returns its exit status and standard output.
    @discardableResult
    static func run(_ program: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [program] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Starts `paplay` on a sink without waiting for it.
    static func play(_ file: String, sink: String) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["paplay", "--device=\(sink)", file]
        try process.run()
        return process
    }

    /// Writes speech with espeak-ng.
    static func speech(_ text: String, to path: String) throws {
        let result = try run("espeak-ng", ["-w", path, text])
        guard result.status == 0 else { throw ToolFailure(message: "espeak-ng exited \(result.status)") }
    }
}

/// A null sink of this test's own on the private server, so the recording hears only what the test
/// plays, while other suites use the default sink at the same time.
struct PrivateSink {
    /// The PulseAudio sink name, for `paplay --device`.
    let name: String
    /// Its description, which is OpenAL Soft's playback device name.
    let description: String
    private let module: String

    init() throws {
        let tag = UUID().uuidString.prefix(6).lowercased()
        name = "vn_\(tag)"
        description = "VoiceNotes_\(tag)"
        let result = try PulseTools.run(
            "pactl",
            [
                "load-module", "module-null-sink", "sink_name=\(name)",
                "sink_properties=device.description=\(description)",
            ])
        guard result.status == 0 else {
            throw ToolFailure(message: "pactl load-module exited \(result.status)")
        }
        module = result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// OpenAL Soft's name for the sink's monitor.
    var monitor: String { "Monitor of \(description)" }

    func unload() {
        _ = try? PulseTools.run("pactl", ["unload-module", module])
    }
}

struct ToolFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
