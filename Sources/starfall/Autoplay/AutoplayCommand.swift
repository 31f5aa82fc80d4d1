import CommandLineKit
import Glibc
import SoundStation
import StarfallCore

/// `starfall --autoplay SECONDS --audio-out FILE.wav`: no window, no terminal. Only the JSON summary
/// goes to stdout, so it can be piped; everything else goes to stderr.
enum AutoplayCommand {
    /// Runs the render and writes its outputs.
    /// - Returns: The process's exit status.
    static func run(seconds: Double, seed: UInt64, audioOut: String, assets: String?) async -> Int32 {
        let root: String
        do {
            root = try GameSound.assetsRoot(assets)
        } catch {
            return fail("\(error.description) (pass --assets DIR to point at the game's assets)")
        }
        let result: AutoplayRun
        do {
            result = try await Autoplay.run(seconds: seconds, seed: seed, assetsRoot: root)
        } catch {
            return fail(error.description)
        }
        do {
            try WAVWriter.write(result.audio, toFileAt: audioOut, format: .float32)
        } catch {
            return fail("\(error.description) (choose a writable --audio-out path)")
        }
        StandardStream.output.write(result.summary.json)
        let summary = result.summary
        Console.report(
            "autoplay \(seconds) s, seed \(seed): \(summary.scenes.count) scenes, "
                + "\(summary.effects.count) effects, wrote \(audioOut)")
        return 0
    }

    private static func fail(_ message: String) -> Int32 {
        Console.report(message)
        return 1
    }
}
