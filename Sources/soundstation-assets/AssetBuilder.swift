import Glibc
import SoundStation

/// How a sound file is stored.
enum AssetFormat {
    /// 16-bit PCM WAV: loads instantly, fine for short effects.
    case wav16
    /// 24-bit PCM WAV.
    case wav24
    /// Ogg Vorbis at a VBR quality from -0.1 to 1: small, for music and longer effects.
    case vorbis(quality: Float)

    /// The file name extension.
    var fileExtension: String {
        switch self {
        case .wav16, .wav24: return "wav"
        case .vorbis: return "ogg"
        }
    }
}

/// One effect the tool makes, with how it is stored and how the catalogue lists it.
struct EffectPlan: Sendable {
    /// The catalogue name, which is also the file name.
    var name: String
    /// The file format.
    var format: AssetFormat
    /// Priority when voices run short.
    var priority = 128
    /// How many copies may play at once.
    var maxInstances = 4
    /// What happens at `maxInstances`, or nil for the catalogue default.
    var steal: String?
    /// Coalescing window, or nil for the catalogue default.
    var coalesceMs: Int?
    /// Synthesises the samples.
    var synthesise: @Sendable () -> [Double]
}

/// Synthesises every sound of the demo game and writes the files and the catalogue.
enum AssetBuilder {
    /// Every sound's peak level: -3 dBFS leaves headroom for codec overshoot and for mixing.
    static let peak = pow(10, -3.0 / 20)
    /// The rate of every asset.
    static let sampleRate = 48_000
    /// Vorbis quality for music: transparent enough for chiptune at about 110 kbit/s.
    static let musicQuality: Float = 0.4

    /// The effects, in catalogue order.
    static let effects: [EffectPlan] = [
        EffectPlan(name: "reward", format: .wav16, synthesise: Effects.reward),
        EffectPlan(
            name: "upgrade", format: .vorbis(quality: 0.5), maxInstances: 2, synthesise: Effects.upgrade),
        EffectPlan(name: "jump", format: .wav16, maxInstances: 3, synthesise: Effects.jump),
        EffectPlan(
            name: "coin", format: .wav16, maxInstances: 6, steal: "oldest", coalesceMs: 30,
            synthesise: Effects.coin),
        EffectPlan(name: "hit", format: .wav16, maxInstances: 3, steal: "quietest", synthesise: Effects.hit),
        EffectPlan(
            name: "explosion", format: .vorbis(quality: 0.5), priority: 200, synthesise: Effects.explosion),
        EffectPlan(
            name: "click", format: .wav16, priority: 64, maxInstances: 2, coalesceMs: 20,
            synthesise: Effects.click),
        EffectPlan(
            name: "level-up", format: .vorbis(quality: 0.5), priority: 180, maxInstances: 1,
            synthesise: Effects.levelUp),
        EffectPlan(name: "miss", format: .wav16, maxInstances: 3, synthesise: Effects.miss),
        EffectPlan(
            name: "bomb-tick", format: .wav24, maxInstances: 1, steal: "refuse", synthesise: Effects.bombTick),
    ]

    /// Writes every sound under `root` and returns the catalogue entries, music first.
    static func build(into root: String) throws -> [CatalogueEntry] {
        for folder in ["Music", "Effects"] {
            try FileOutput.makeFolder(root + "/" + folder)
        }
        var entries: [CatalogueEntry] = []
        let songs = [("main", Songs.main(), [Songs.gameLayers[0]]), ("game", Songs.game(), Songs.gameLayers)]
        for (name, song, layers) in songs {
            let rendered = Sequencer.render(song, sampleRate: sampleRate, peak: peak)
            // Layer 0 is the track's own file; the others are its stems, each the same length.
            var paths: [String] = []
            for (layer, samples) in rendered.layers.enumerated() {
                let path = "Music/\(name)\(layers[layer].suffix).ogg"
                try write(
                    PCMAudio(sampleRate: sampleRate, channels: 2, samples: samples),
                    to: root + "/" + path, format: .vorbis(quality: musicQuality))
                paths.append(path)
            }
            let stems = zip(paths, layers).dropFirst().map {
                CatalogueEntry.StemEntry(path: $0.0, from: $0.1.from, full: $0.1.full)
            }
            let hasIntro = rendered.loopStart > 0
            entries.append(
                CatalogueEntry(
                    name: name, path: paths[0], kind: "music", volume: 0.8, loop: true,
                    loopStart: hasIntro ? rendered.loopStart : nil,
                    loopEnd: hasIntro ? rendered.loopEnd : nil, bpm: song.beatsPerMinute,
                    beatsPerBar: song.beatsPerBar, stems: stems, priority: 255, maxInstances: 1,
                    stream: true))
        }
        for effect in effects {
            let path = "Effects/\(effect.name).\(effect.format.fileExtension)"
            let samples = normalised(effect.synthesise(), peak: peak)
            try write(
                PCMAudio(sampleRate: sampleRate, channels: 1, samples: samples), to: root + "/" + path,
                format: effect.format)
            entries.append(
                CatalogueEntry(
                    name: effect.name, path: path, kind: "effect", volume: 1.0, loop: false,
                    priority: effect.priority, maxInstances: effect.maxInstances, steal: effect.steal,
                    stream: false,
                    coalesceMs: effect.coalesceMs))
        }
        try CatalogueWriter.write(entries, to: root + "/" + Catalogue.manifestName)
        return entries
    }

    /// `samples` scaled so the loudest is exactly `peak`, as Float.
    static func normalised(_ samples: [Double], peak: Double) -> [Float] {
        let loudest = samples.reduce(0) { max($0, abs($1)) }
        let gain = loudest > 0 ? peak / loudest : 0
        return samples.map { Float($0 * gain) }
    }

    /// Writes `audio` to `path` in `format`.
    private static func write(_ audio: PCMAudio, to path: String, format: AssetFormat) throws {
        switch format {
        case .wav16:
            try WAVWriter.write(audio, toFileAt: path, format: .int16)
        case .wav24:
            try WAV24Writer.write(audio, toFileAt: path)
        case .vorbis(let quality):
            let encoder = try VorbisEncoder(
                path: path, sampleRate: audio.sampleRate, channels: audio.channels, quality: quality)
            try encoder.write(audio.samples)
            try encoder.finish()
        }
    }
}
