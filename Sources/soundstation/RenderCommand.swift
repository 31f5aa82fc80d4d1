import CommandLineKit
import Glibc
import SoundStation

/// `soundstation render --seconds S --out FILE.wav [--rate HZ] [--assets DIR] EVENT...`
enum RenderCommand {
    static func run(_ arguments: inout Arguments) async throws {
        let seconds = try arguments.number("seconds", in: 0...3600)
        let out = try arguments.value("out")
        let rate = Int(try arguments.number("rate", in: 8000...192_000) ?? 48_000)
        let assets = try arguments.value("assets")
        let events = try arguments.positional()
        guard let seconds else { throw CLIError.usage("render needs --seconds S") }
        guard let out else { throw CLIError.usage("render needs --out FILE.wav") }
        let session = try CueSession(events, catalogue: try Command.loadCatalogue(assets))
        let catalogue = session.catalogue
        let engine = try AudioEngine(output: .offline(sampleRate: rate, channels: 2))
        try session.check(sampleRate: engine.sampleRate)
        engine.onNotice { notice in
            StandardStream.error.write("soundstation: notice: \(notice)\n")
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
            String(cFormat: "rendered %.3f s at %d Hz to ", seconds, rate) + out
                + String(cFormat: " (peak %.3f)", peak))
    }
}
