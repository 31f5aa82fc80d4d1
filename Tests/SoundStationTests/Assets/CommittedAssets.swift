import Foundation

@testable import SoundStation

/// The `Assets/` folder committed at the package root, loaded and decoded once for all tests:
/// decoding a minute of Vorbis for every test would slow the suite down for nothing.
enum CommittedAssets {
    /// The package's `Assets/` folder, found from this file's location so tests pass whatever
    /// the working directory is.
    static let root: String =
        URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Assets
        .deletingLastPathComponent()  // SoundStationTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // package root
        .appendingPathComponent("Assets").path

    /// The committed catalogue, or why it did not load.
    static let catalogue = Result { () throws(CatalogueError) -> Catalogue in
        try Catalogue(assetsRoot: root)
    }

    /// Every catalogue sound decoded, by name; empty when the catalogue itself failed.
    static let decoded: [String: Result<PCMAudio, AudioDecodingError>] = {
        guard case .success(let catalogue) = catalogue else { return [:] }
        var decoded: [String: Result<PCMAudio, AudioDecodingError>] = [:]
        for entry in catalogue.entries {
            decoded[entry.name] = Result { () throws(AudioDecodingError) -> PCMAudio in
                try AudioDecoder.decode(fileAt: entry.resolvedPath)
            }
        }
        return decoded
    }()

    /// The names the demo game plays.
    static let musicNames = ["main", "game"]
    /// The effect names the demo game plays.
    static let effectNames = [
        "reward", "upgrade", "jump", "coin", "hit", "explosion", "click", "level-up", "miss", "bomb-tick",
    ]

    /// The loaded catalogue; throws its loading error.
    static func loadedCatalogue() throws -> Catalogue {
        try catalogue.get()
    }

    /// The decoded sound called `name`; throws its decoding error.
    static func audio(_ name: String) throws -> PCMAudio {
        guard let result = decoded[name] else {
            throw CatalogueError.unknownSound(name: name, suggestions: [])
        }
        return try result.get()
    }
}

/// The jump across a loop seam next to the largest jump between neighbouring frames of the
/// decoded track; a seam no rougher than the music itself cannot be heard as a click.
struct SeamMeasure: CustomStringConvertible {
    let seamJump: Float
    let largestInsideJump: Float

    init(_ audio: PCMAudio, loopStart: Int, loopEnd: Int) {
        let channels = audio.channels
        let samples = audio.samples
        var seam: Float = 0
        var inside: Float = 0
        for channel in 0..<channels {
            seam = max(
                seam,
                abs(samples[(loopEnd - 1) * channels + channel] - samples[loopStart * channels + channel]))
            for frame in 1..<audio.frameCount {
                inside = max(
                    inside,
                    abs(samples[frame * channels + channel] - samples[(frame - 1) * channels + channel]))
            }
        }
        seamJump = seam
        largestInsideJump = inside
    }

    var description: String {
        "seam jump \(seamJump), largest jump inside \(largestInsideJump)"
    }
}
