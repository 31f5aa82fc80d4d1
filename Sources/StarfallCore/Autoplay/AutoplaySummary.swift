/// What an autoplay run did, as `starfall --autoplay` prints it: the scenes with their music, and
/// every effect with its time, volume, pitch and pan.
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

    /// Scenes in order.
    public var scenes: [SceneEntry] = []
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
        let effectLines = effects.map { effect in
            "    { \"name\": \"\(effect.name)\", \"at\": \(Self.number(effect.at)), "
                + "\"volume\": \(Self.number(Double(effect.volume))), "
                + "\"pitch\": \(Self.number(Double(effect.pitch))), \"pan\": \(Self.number(Double(effect.pan))) }"
        }
        return "{\n  \"scenes\": [\n" + sceneLines.joined(separator: ",\n") + "\n  ],\n  \"effects\": [\n"
            + effectLines.joined(separator: ",\n") + "\n  ]\n}\n"
    }

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
