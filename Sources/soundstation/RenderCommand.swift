import CommandLineKit
import Glibc
import SoundStation
import SoundStationPlayer

/// `soundstation render --seconds S --out FILE.wav [--rate HZ] [--assets DIR] EVENT...`, or
/// `soundstation render --session FILE --cache DIR --seconds S --out FILE.wav`: a remote session's
/// sound messages as `soundstation ssh --record` kept them, rendered offline with every command at
/// its time on the server's clock (from the session's hello), for comparing with what was heard.
enum RenderCommand {
    static func run(_ arguments: inout Arguments) async throws {
        let seconds = try arguments.number("seconds", in: 0...3600)
        let out = try arguments.value("out")
        let rate = Int(try arguments.number("rate", in: 8000...192_000) ?? 48_000)
        let assets = try arguments.value("assets")
        let recorded = try arguments.value("session")
        let cacheDirectory = try arguments.value("cache")
        if let recorded, try arguments.flag("list") {
            // Each message of a recorded session, one a line, for seeing what a game sent.
            for message in try sessionMessages(recorded) {
                if let decoded = try? RemoteMessage(decoding: message) {
                    switch decoded {
                    case .fileChunk(let hash, let size, let offset, let data):
                        print("file \(hash.shortHex) \(offset)+\(data.count) of \(size)")
                    case .catalogue(_, let files): print("catalogue of \(files.count) files")
                    // Names in it are the server's: printable first.
                    default: print(String(describing: decoded).printable)
                    }
                } else {
                    print("undecodable \(message.count) bytes")
                }
            }
            return
        }
        guard let seconds else { throw CLIError.usage("render needs --seconds S") }
        guard let out else { throw CLIError.usage("render needs --out FILE.wav") }
        if let recorded {
            _ = try arguments.positional()
            return try renderSession(recorded, cache: cacheDirectory, seconds: seconds, out: out)
        }
        let events = try arguments.positional()
        let session = try CueSession(events, catalogue: try Command.loadCatalogue(assets))
        let catalogue = session.catalogue
        let engine = try AudioEngine(output: .offline(sampleRate: rate, channels: 2))
        try session.check(sampleRate: engine.sampleRate)
        engine.onNotice { notice in
            StandardStream.error.write("soundstation: notice: \(notice.printable)\n")
        }
        let stage = SoundSystem(engine: engine, catalogue: catalogue)
        try await session.preload(into: stage)
        session.schedule(on: stage, offset: .zero)
        let total = Int((seconds * Double(rate)).rounded())
        var samples: [Float] = []
        samples.reserveCapacity(total * 2)
        var rendered = 0
        while rendered < total {
            let chunk = min(rate, total - rendered)
            samples += try engine.render(frames: chunk).samples
            rendered += chunk
        }
        let audio = PCMAudio(sampleRate: rate, channels: 2, samples: samples)
        try WAVWriter.write(audio, toFileAt: out, format: .float32)
        let peak = samples.reduce(0) { max($0, abs($1)) }
        print(
            String(cFormat: "rendered %.3f s at %d Hz to ", seconds, rate) + out.printable
                + String(cFormat: " (peak %.3f)", peak))
    }
}

extension RenderCommand {
    /// Renders a recorded session (messages as 4-byte little-endian lengths and bytes) through a
    /// ``RemotePlayer`` on an offline engine with no delay: each command lands at its server frame
    /// counted from the session's hello.
    static func renderSession(_ path: String, cache directory: String?, seconds: Double, out: String) throws {
        let messages = try sessionMessages(path)
        try renderSessionMessages(messages, cache: directory, seconds: seconds, out: out)
    }

    /// The messages of a session recorded by `soundstation ssh --record`.
    static func sessionMessages(_ path: String) throws -> [[UInt8]] {
        guard let bytes = FileSystem.read(path) else { throw CLIError("--session \(path): cannot be read") }
        var messages: [[UInt8]] = []
        var index = 0
        while index + 4 <= bytes.count {
            let count =
                Int(bytes[index]) | Int(bytes[index + 1]) << 8 | Int(bytes[index + 2]) << 16 | Int(
                    bytes[index + 3]) << 24
            guard count <= RemoteFraming.maxPayload, index + 4 + count <= bytes.count else {
                throw CLIError("--session \(path): a message at byte \(index) runs past the end")
            }
            messages.append(Array(bytes[(index + 4)..<(index + 4 + count)]))
            index += 4 + count
        }
        return messages
    }

    static func renderSessionMessages(
        _ messages: [[UInt8]], cache directory: String?, seconds: Double, out: String
    )
        throws
    {
        let cache: AssetCache
        do { cache = try AssetCache(directory: directory) } catch { throw CLIError(error.description) }
        let engine = try AudioEngine(output: .offline(sampleRate: 48_000, channels: 2))
        let player = RemotePlayer(engine: engine, cache: cache, delay: .zero, verified: cache.verify().sound)
        // Everything before the first command (hello, names, the catalogue) first, then wait until
        // every sound is loaded, so no command waits for a load while the clock stands at zero.
        let firstCommand =
            messages.firstIndex { message in
                if case .command = try? RemoteMessage(decoding: message) { return true }
                return false
            } ?? messages.count
        player.receive(Array(messages[..<firstCommand]))
        let deadline = ContinuousClock.now + .seconds(20)
        while !player.report.ready, ContinuousClock.now < deadline { usleep(10_000) }
        guard player.report.ready else {
            throw CLIError("the session's sounds are not all in the cache \(cache.directory)")
        }
        player.receive(Array(messages[firstCommand...]))
        player.finish()
        let total = Int((seconds * 48_000).rounded())
        var samples: [Float] = []
        samples.reserveCapacity(total * 2)
        var rendered = 0
        while rendered < total {
            let chunk = min(4800, total - rendered)
            samples += try engine.render(frames: chunk).samples
            rendered += chunk
        }
        engine.shutdown()
        try WAVWriter.write(
            PCMAudio(sampleRate: 48_000, channels: 2, samples: samples), toFileAt: out, format: .int16)
        let report = player.report
        print(
            "rendered \(String(cFormat: "%.3f", seconds)) s of \(report.commands) commands (\(report.sessions) sessions, "
                + "\(report.notArrived) not arrived, \(report.late) late) to \(out.printable)")
    }
}
