/// What an autoplay run did, as `starfall --autoplay` prints it: the scenes with their music, each
/// music switch with the bar and beat it landed on, the layers' intensity changes, and every effect
/// with its time, volume, pitch and pan.
public struct AutoplaySummary: Sendable, Equatable {
    /// A scene that began.
    public struct SceneEntry: Sendable, Equatable {
        /// The scene's name ("menu", "game", "game-over").
        public var name: String
        /// The track it started from the beginning, or nil when it stopped the music.
        public var music: String?
        /// Seconds from the start of the render.
        public var at: Double
    }

    /// An effect that was fired.
    public struct EffectEntry: Sendable, Equatable {
        /// Its catalogue name.
        public var name: String
        /// Seconds from the start of the render; it starts at frame `round(at * 48000)`.
        public var at: Double
        /// The volume it was played at, relative to the catalogue's.
        public var volume: Float
        /// Its pitch ratio.
        public var pitch: Float
        /// Its pan, -1 left to 1 right.
        public var pan: Float
    }

    /// An intensity glide of the layered music.
    public struct IntensityEntry: Sendable, Equatable {
        /// The intensity it glides to, 0...1.
        public var to: Double
        /// When it begins, in seconds from the start of the render.
        public var at: Double
        /// How long it takes, in seconds (0: at once).
        public var over: Double
    }

    /// Scenes in order.
    public var scenes: [SceneEntry] = []
    /// Music switches in order.
    public var music: [MusicSwitch] = []
    /// Intensity changes in order.
    public var intensity: [IntensityEntry] = []
    /// Effects in order.
    public var effects: [EffectEntry] = []

    /// Collects the cues ``GameAudio`` reported.
    /// - Parameter cues: Everything played, in order.
    public init(cues: [AudioCue]) {
        for cue in cues {
            switch cue {
            case .scene(let scene, let music, let at):
                scenes.append(SceneEntry(name: scene.rawValue, music: music, at: at))
            case .effect(let name, let at, let volume, let pitch, let pan):
                effects.append(EffectEntry(name: name, at: at, volume: volume, pitch: pitch, pan: pan))
            case .music(let change):
                music.append(change)
            case .intensity(let value, let at, let over):
                intensity.append(IntensityEntry(to: value, at: at, over: over))
            }
        }
    }

    /// The summary as one JSON object, one scene or effect per line; numbers have at most six decimals
    /// and are written digit by digit, so the same run always gives the same bytes.
    public var json: String {
        let sceneLines = scenes.map { scene in
            let music = scene.music.map { "\"\($0)\"" } ?? "null"
            return
                "    { \"name\": \"\(scene.name)\", \"music\": \(music), \"at\": \(Self.number(scene.at)) }"
        }
        let musicLines = music.map { change in
            "    { \"from\": \(Self.quoted(change.from)), \"to\": \(Self.quoted(change.to)), "
                + "\"asked\": \(Self.number(change.asked)), \"at\": \(Self.number(change.at)), "
                + "\"bar\": \(change.bar.map(String.init) ?? "null"), "
                + "\"beat\": \(change.beat.map(String.init) ?? "null") }"
        }
        let intensityLines = intensity.map { entry in
            "    { \"to\": \(Self.number(entry.to)), \"at\": \(Self.number(entry.at)), "
                + "\"over\": \(Self.number(entry.over)) }"
        }
        let effectLines = effects.map { effect in
            "    { \"name\": \"\(effect.name)\", \"at\": \(Self.number(effect.at)), "
                + "\"volume\": \(Self.number(Double(effect.volume))), "
                + "\"pitch\": \(Self.number(Double(effect.pitch))), \"pan\": \(Self.number(Double(effect.pan))) }"
        }
        let lists = [
            ("scenes", sceneLines), ("music", musicLines), ("intensity", intensityLines),
            ("effects", effectLines),
        ]
        return "{\n"
            + lists.map { "  \"\($0.0)\": [\n" + $0.1.joined(separator: ",\n") + "\n  ]" }.joined(
                separator: ",\n")
            + "\n}\n"
    }

    /// A JSON string, or null.
    private static func quoted(_ name: String?) -> String { name.map { "\"\($0)\"" } ?? "null" }

    /// `value` rounded to six decimals, without trailing zeros but with at least one decimal.
    static func number(_ value: Double) -> String {
        let millionths = Int64((value * 1_000_000).rounded())
        let sign = millionths < 0 ? "-" : ""
        let magnitude = millionths.magnitude
        var fraction = String(magnitude % 1_000_000)
        fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
        while fraction.count > 1, fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(sign)\(magnitude / 1_000_000).\(fraction)"
    }
}
