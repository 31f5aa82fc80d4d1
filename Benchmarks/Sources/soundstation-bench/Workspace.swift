import Foundation
import SoundStation

/// The temporary folder a bench run works in, made by `soundstation-bench prepare` from the repository's
/// `Assets/` and read by every binary:
///
///     preload/    the demo's sounds, all decoded (music "stream": false), plus a 60 s track
///     streamed/   the demo's catalogue as shipped (music streams), plus the 60 s track streamed
///     trigger/    one effect with 32 instances, stealing the oldest, no coalescing
///     load/       the trigger's effect, the demo's effects (a scene to preload and unload) and two
///                 streamed looping tracks (the 60 s and 10-minute ones), for trigger-under-load
///                 and idle-music
///     long/       a generated 10-minute track (a chained Ogg stream of two halves), streamed
///     *.list      the same sounds for the C peers: "decode PATH" or "open PATH" per line
///     speech16k.wav  60 s of 16 kHz mono speech (espeak-ng + sox in bench.sh, or synthesised here)
struct Workspace {
    /// The folder.
    let root: String

    var preload: String { root + "/preload" }
    var streamed: String { root + "/streamed" }
    var trigger: String { root + "/trigger" }
    var long: String { root + "/long" }
    var load: String { root + "/load" }
    var speech: String { root + "/speech16k.wav" }

    /// Seconds of the generated tracks.
    static let trackSeconds = 60
    static let longTrackSeconds = 600
    static let speechSeconds = 60.0

    /// Builds the workspace from the demo assets at `assets`.
    /// - Parameter assets: The repository's `Assets/` folder.
    func prepare(assets: String) throws {
        let demo = try Catalogue(assetsRoot: assets)
        let files = FileManager.default
        for folder in [preload, streamed, trigger, long, load] {
            for sub in ["Effects", "Music"] {
                try files.createDirectory(atPath: folder + "/" + sub, withIntermediateDirectories: true)
            }
        }
        for entry in demo.entries {
            for folder in [preload, streamed] { try copy(entry.resolvedPath, to: folder + "/" + entry.path) }
        }
        try copy(assets + "/Effects/coin.wav", to: trigger + "/Effects/coin.wav")
        try copy(assets + "/Effects/coin.wav", to: load + "/Effects/coin.wav")
        let sceneEffects = demo.entries.filter { $0.kind == .effect }
        for entry in sceneEffects { try copy(entry.resolvedPath, to: load + "/" + entry.path) }

        // Three encodes share the cores: the 60 s track and the two halves of the 10-minute one, whose
        // files are then joined into one chained Ogg stream.
        let track = preload + "/Music/track60.ogg"
        let longTrack = long + "/Music/track600.ogg"
        let half = Self.longTrackSeconds / 2
        let parts = [root + "/track600-a.ogg", root + "/track600-b.ogg"]
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: 3) { index in
            do {
                switch index {
                case 0: try Synth.writeTrack(to: parts[0], from: 0, seconds: half, serialNumber: 0x5353)
                case 1: try Synth.writeTrack(to: parts[1], from: half, seconds: half, serialNumber: 0x5354)
                default: try Synth.writeTrack(to: track, seconds: Self.trackSeconds)
                }
            } catch {
                failures.add("generating a track: \(error)")
            }
        }
        if let failure = failures.first { fail(failure) }
        var joined = try Data(contentsOf: URL(fileURLWithPath: parts[0]))
        joined.append(try Data(contentsOf: URL(fileURLWithPath: parts[1])))
        try joined.write(to: URL(fileURLWithPath: longTrack))
        for part in parts { try files.removeItem(atPath: part) }
        try copy(track, to: streamed + "/Music/track60.ogg")
        try copy(track, to: load + "/Music/track60.ogg")
        try copy(longTrack, to: load + "/Music/track600.ogg")

        // preload: everything decoded. The 60 s track is an effect entry because music above 16 MiB of
        // PCM always streams, and this case is about decoding.
        var decoded = demo.entries.map { ManifestEntry($0, stream: false) }
        decoded.append(
            ManifestEntry(name: "track60", path: "Music/track60.ogg", kind: "effect", stream: false))
        try write(decoded, to: preload)
        var shipped = demo.entries.map { ManifestEntry($0, stream: $0.stream) }
        shipped.append(ManifestEntry(name: "track60", path: "Music/track60.ogg", kind: "music", stream: true))
        try write(shipped, to: streamed)
        var blip = ManifestEntry(name: "blip", path: "Effects/coin.wav", kind: "effect", stream: false)
        blip.maxInstances = 32
        blip.steal = "oldest"
        blip.coalesceMs = 0
        try write([blip], to: trigger)
        var track600 = ManifestEntry(name: "long", path: "Music/track600.ogg", kind: "music", stream: true)
        track600.loop = false
        try write([track600], to: long)

        // load: blip as in trigger/, the demo's effects as a scene (decoded), two streamed tracks that
        // loop. The scene entries keep their demo names, prefixed so they cannot clash with blip.
        var scene = sceneEffects.map { entry -> ManifestEntry in
            var scene = ManifestEntry(entry, stream: false)
            scene.name = "scene-" + entry.name
            return scene
        }
        scene.insert(blip, at: 0)
        for (name, file) in [("trackA", "track60.ogg"), ("trackB", "track600.ogg")] {
            var music = ManifestEntry(name: name, path: "Music/" + file, kind: "music", stream: true)
            music.loop = true
            scene.append(music)
        }
        try write(scene, to: load)
        try writeList(sceneEffects.map { ("decode", load + "/" + $0.path) }, to: root + "/scene.list")
        try writeList(
            [("open", load + "/Music/track60.ogg"), ("open", load + "/Music/track600.ogg")],
            to: root + "/music.list")

        try writeList(decoded.map { ("decode", preload + "/" + $0.path) }, to: root + "/preload.list")
        try writeList(
            shipped.map { ($0.stream == true ? "open" : "decode", streamed + "/" + $0.path) },
            to: root + "/streamed.list")
        try writeList(
            demo.entries.map { ($0.stream ? "open" : "decode", $0.resolvedPath) }, to: root + "/demo.list")

        if !files.fileExists(atPath: speech) {
            progress("espeak-ng speech not found; synthesising speech-like audio instead")
            let audio = Synth.speech(seconds: Self.speechSeconds, sampleRate: 16_000)
            try WAVWriter.write(audio, toFileAt: speech, format: .int16)
        }
    }

    private func copy(_ source: String, to destination: String) throws {
        let files = FileManager.default
        if files.fileExists(atPath: destination) { try files.removeItem(atPath: destination) }
        try files.copyItem(atPath: source, toPath: destination)
    }

    private func write(_ entries: [ManifestEntry], to folder: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(Manifest(sounds: entries))
        try data.write(to: URL(fileURLWithPath: folder + "/" + Catalogue.manifestName))
        _ = try Catalogue(assetsRoot: folder)  // the library must accept what was written
    }

    private func writeList(_ lines: [(String, String)], to path: String) throws {
        let text = lines.map { "\($0.0) \($0.1)\n" }.joined()
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }
}

/// Errors collected from concurrent work.
private final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var messages: [String] = []

    func add(_ message: String) { lock.withLock { messages.append(message) } }
    var first: String? { lock.withLock { messages.first } }
}

/// A `catalogue.json` document.
private struct Manifest: Encodable {
    var sounds: [ManifestEntry]
}

/// One sound of a `catalogue.json`, with the keys the catalogue reader accepts.
private struct ManifestEntry: Encodable {
    var name: String
    var path: String
    var kind: String
    var volume: Float?
    var loop: Bool?
    var loopStart: LoopValue?
    var loopEnd: LoopValue?
    var priority: Int?
    var maxInstances: Int?
    var steal: String?
    var coalesceMs: Double?
    var stream: Bool?

    init(name: String, path: String, kind: String, stream: Bool) {
        self.name = name
        self.path = path
        self.kind = kind
        self.stream = stream
    }

    /// The manifest spelling of a loaded entry, with `stream` replaced.
    init(_ entry: SoundEntry, stream: Bool) {
        name = entry.name
        path = entry.path
        kind = entry.kind.rawValue
        volume = entry.volume
        loop = entry.loop
        loopStart = entry.loopStart.map(LoopValue.init)
        loopEnd = entry.loopEnd.map(LoopValue.init)
        priority = entry.priority
        maxInstances = entry.maxInstances
        steal = entry.steal.rawValue
        coalesceMs = entry.coalesceMilliseconds
        self.stream = stream
    }
}

/// A loop point as the manifest writes it: integer frames or `"1.5s"`.
private struct LoopValue: Encodable {
    let point: LoopPoint

    init(_ point: LoopPoint) { self.point = point }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch point {
        case .frames(let frames): try container.encode(frames)
        case .seconds(let seconds): try container.encode("\(seconds)s")
        }
    }
}
