import CommandLineKit
import Glibc
import SoundStation

/// `soundstation synth PRESET|PARAMS [--seed N] [--mutate N] [--variation ST] [--play] [--output O]
/// [--out FILE.wav]`: renders an sfxr effect, prints its parameters in the catalogue's JSON form (and
/// jsfxr's share string), plays it and/or writes it as a WAV file.
enum SynthCommand {
    static func run(_ arguments: inout Arguments) async throws {
        let seed = try arguments.integer("seed", in: 0...Int.max)
        let mutations = try arguments.integer("mutate", in: 0...1000) ?? 0
        let variation = try arguments.number("variation", in: 0...12) ?? 0
        let play = try arguments.flag("play")
        let outputText = try arguments.value("output")
        let out = try arguments.value("out")
        let what = try arguments.single(
            "a preset (\(SynthPreset.allCases.map(\.rawValue).joined(separator: ", "))) or parameters")
        var sound: SynthSound
        if let preset = try? SynthPreset(named: what) {
            sound = .preset(preset, seed: UInt64(seed ?? 0), mutations: mutations, variation: variation)
        } else {
            guard what.contains("{") || what.contains(",") || what.count > 20 else {
                throw CLIError.usage(SynthError.unknownPreset(what).description)
            }
            do { sound = try SynthSound(parsing: what) } catch { throw CLIError.usage(error.description) }
            if seed != nil || mutations > 0 || variation > 0 {
                throw CLIError.usage(
                    "--seed, --mutate and --variation go with a preset; parameters hold their own")
            }
        }
        let audio: PCMAudio
        do { audio = try SynthGenerator.render(sound.parameters) } catch {
            throw CLIError.usage(error.description)
        }
        print(sound.json)
        print("jsfxr: #\(sound.base58)")
        print(
            String(
                cFormat: "%.3f s at %d Hz, peak %.2f", audio.duration.inSeconds, audio.sampleRate, peak(audio)
            ))
        if let out {
            try WAVWriter.write(audio, toFileAt: out, format: .int16)
            print("wrote \(out.printable)")
        }
        guard play || outputText != nil else { return }
        let output = try outputText.map(parseOutput) ?? AudioOutput.fromEnvironment()
        let engine = try AudioEngine.openWithFallback(output) { notice in
            StandardStream.error.write("soundstation: notice: \(notice.printable)\n")
        }
        defer { engine.shutdown() }
        let buffer = try engine.makeBuffer(audio, name: "synth")
        let start = engine.time
        _ = try engine.play(buffer)
        print("playing on \(engine.output) (\(engine.deviceName.printable))")
        while engine.time - start < audio.duration + .milliseconds(100) || engine.activeVoiceCount > 0 {
            try await Task.sleep(for: .milliseconds(20))
            if engine.time - start > audio.duration + .seconds(2) { break }
        }
    }

    /// `--output`: device, device:NAME or silent, as `soundstation ssh` takes it.
    static func parseOutput(_ text: String) throws -> AudioOutput {
        switch text {
        case "device": return .device()
        case "silent": return .silent
        case let named where named.hasPrefix("device:"): return .device(name: String(named.dropFirst(7)))
        default: throw CLIError.usage("--output \"\(text)\": expected device, device:NAME or silent")
        }
    }

    private static func peak(_ audio: PCMAudio) -> Double {
        Double(audio.samples.reduce(0) { max($0, abs($1)) })
    }
}
