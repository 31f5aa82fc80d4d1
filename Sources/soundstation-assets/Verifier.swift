import CommandLineKit
import Glibc
import SoundStation

/// What verification learned about one catalogue sound.
struct VerifiedSound {
    /// The catalogue name.
    let name: String
    /// The kind, as the manifest spells it.
    let kind: String
    /// The decoded audio.
    let audio: PCMAudio
    /// The file size in bytes.
    let bytes: Int
    /// The loudest decoded sample.
    let peak: Float
}

/// Why the written assets do not hold up.
struct VerificationFailure: Error, CustomStringConvertible {
    /// One line per problem found.
    let problems: [String]

    /// All problems, one per line.
    var description: String {
        "asset verification failed:\n" + problems.map { "  - " + $0 }.joined(separator: "\n")
    }
}

/// Reads the written assets back the way the engine will, so a broken file fails the build
/// rather than a game.
enum Verifier {
    /// Loads the catalogue at `root`, decodes every sound and checks levels and loop seams.
    static func verify(root: String) throws -> [VerifiedSound] {
        let catalogue = try Catalogue(assetsRoot: root)
        var sounds: [VerifiedSound] = []
        var problems: [String] = []
        for entry in catalogue.entries {
            let audio: PCMAudio
            do {
                audio = try AudioDecoder.decode(
                    fileAt: entry.resolvedPath,
                    options: DecodingOptions(warn: {
                        StandardStream.error.write("soundstation-assets: warning: \($0.description)\n")
                    }))
            } catch {
                problems.append("\(entry.name): \(error)")
                continue
            }
            let peak = audio.samples.reduce(0) { max($0, abs($1)) }
            if peak >= 1 {
                problems.append("\(entry.name): peak \(peak) clips")
            }
            if entry.loop {
                let start = entry.loopStart?.frame(atSampleRate: audio.sampleRate) ?? 0
                let end = entry.loopEnd?.frame(atSampleRate: audio.sampleRate) ?? audio.frameCount
                let seam = LoopSeam(audio, loopStart: start, loopEnd: end)
                if !seam.isSmooth {
                    problems.append(
                        "\(entry.name): loop seam jumps \(seam.seamJump), more than the largest jump "
                            + "inside the track (\(seam.largestInsideJump))")
                }
            }
            let size = ProcessEnvironment.fileSize(atPath: entry.resolvedPath)
            sounds.append(
                VerifiedSound(
                    name: entry.name, kind: entry.kind.rawValue, audio: audio, bytes: size ?? 0, peak: peak))
        }
        guard problems.isEmpty else { throw VerificationFailure(problems: problems) }
        return sounds
    }

    /// A fixed-width table of the verified sounds, one line each, with a header and a total.
    static func table(_ sounds: [VerifiedSound]) -> String {
        var lines = [
            pad("name", 11) + pad("kind", 8) + pad("seconds", 9, right: true) + pad("rate", 7, right: true)
                + pad("ch", 4, right: true) + pad("bytes", 10, right: true)
                + pad("peak dBFS", 11, right: true)
        ]
        for sound in sounds {
            let decibels = sound.peak > 0 ? 20 * log10(Double(sound.peak)) : -.infinity
            lines.append(
                pad(sound.name, 11) + pad(sound.kind, 8)
                    + pad(String(cFormat: "%.3f", sound.audio.duration.inSeconds), 9, right: true)
                    + pad(String(sound.audio.sampleRate), 7, right: true)
                    + pad(String(sound.audio.channels), 4, right: true)
                    + pad(String(sound.bytes), 10, right: true)
                    + pad(String(cFormat: "%.2f", decibels), 11, right: true))
        }
        lines.append("total: \(sounds.count) sounds, \(sounds.reduce(0) { $0 + $1.bytes }) bytes")
        return lines.joined(separator: "\n")
    }

    private static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, width - text.count))
        return right ? fill + text : text + fill
    }
}
