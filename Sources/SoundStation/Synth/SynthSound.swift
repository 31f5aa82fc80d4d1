/// A synthesised sound as a catalogue entry, ``SoundSystem/synth(_:_:)`` or `ss_synth` names it: its
/// parameters and how much each trigger varies.
///
/// Written three ways, all read by ``init(parsing:)``:
/// - the catalogue's JSON form: `{"preset": "coin", "seed": 7}`, optionally with `"mutate": n`
///   (n seeded sfxr mutations), `"variation"` (semitones, below) and any `p_*` slider, `wave_type` or
///   `sound_vol` overriding the preset's; without a preset, the sliders alone (jsfxr's "serialize"
///   JSON reads as is), where `"seed"` seeds the noise;
/// - jsfxr's share string, the base58 text after `#` in an sfxr.me link (with or without the `#`, or
///   the whole link);
/// - sfxr's comma-separated settings (as3sfxr's and Bfxr's "copy settings"): the 23 sliders in sfxr's
///   order then the volume, an empty field meaning 0.
///
/// ``json`` writes the full JSON form (every slider and the noise seed), which reads back to the same
/// parameters.
public struct SynthSound: Sendable, Equatable {
    /// What the generator renders.
    public var parameters: SynthParameters
    /// How far each trigger's pitch may stray, in semitones (0...12; 0 for none): every trigger by id
    /// takes the next value of a sequence seeded by the sound's id, so ten lasers in a row differ, and
    /// the same triggers in the same order vary the same way in an offline render.
    public var variation: Double

    /// A sound with these parameters.
    /// - Parameters:
    ///   - parameters: What to render.
    ///   - variation: Semitones each trigger's pitch may stray (0...12).
    public init(_ parameters: SynthParameters, variation: Double = 0) {
        self.parameters = parameters
        self.variation = variation
    }

    /// A preset's sound.
    /// - Parameters:
    ///   - preset: The family.
    ///   - seed: Picks one sound of the family.
    ///   - mutations: How many seeded sfxr mutations to apply after (0 for none).
    ///   - variation: Semitones each trigger's pitch may stray (0...12).
    /// - Returns: The sound.
    public static func preset(
        _ preset: SynthPreset, seed: UInt64, mutations: Int = 0, variation: Double = 0
    ) -> SynthSound {
        var parameters = preset.parameters(seed: seed)
        parameters = Self.mutate(parameters, seed: seed, times: mutations)
        return SynthSound(parameters, variation: variation)
    }

    /// Reads any of the three forms.
    /// - Parameter text: JSON (starting with `{`), a jsfxr share string or link, or sfxr's settings.
    /// - Throws: ``SynthError`` naming the bad value.
    public init(parsing text: String) throws(SynthError) {
        let trimmed = text.filter { !$0.isWhitespace }
        if trimmed.hasPrefix("{") {
            let value: ManifestJSON.Value
            do { value = try ManifestJSON.parse(Array(text.utf8)) } catch {
                throw .unreadable(text: text, reason: "not JSON (\(error.description))")
            }
            try self.init(json: value)
        } else if trimmed.contains(",") {
            self.init(try SynthCodec.parameters(settings: trimmed))
        } else {
            let hash = trimmed.lastIndex(of: "#").map { trimmed.index(after: $0) } ?? trimmed.startIndex
            self.init(try SynthCodec.parameters(base58: String(trimmed[hash...])))
        }
    }

    /// Reads the JSON form from a parsed value (a catalogue entry's `synth`).
    init(json value: ManifestJSON.Value) throws(SynthError) {
        guard case .object(let object) = value else {
            throw .invalidParameter(key: "synth", value: value.brief, expected: "an object or a string")
        }
        func number(_ key: String) throws(SynthError) -> Double? {
            switch object[key] {
            case nil: return nil
            case .integer(let whole)?: return Double(whole)
            case .number(let fraction)?: return fraction
            case let other?: throw .invalidParameter(key: key, value: other.brief, expected: "a number")
            }
        }
        func whole(_ key: String, _ range: ClosedRange<Int>) throws(SynthError) -> Int? {
            guard let value = object[key] else { return nil }
            guard case .integer(let number) = value, range.contains(number) else {
                throw .invalidParameter(
                    key: key, value: value.brief,
                    expected: "a whole number from \(range.lowerBound) to \(range.upperBound)")
            }
            return number
        }
        let known = Set(SynthParameters.fields.map(\.key) + Self.ownKeys + Self.ignoredKeys)
        for member in object.members where !known.contains(member.key) {
            throw .invalidParameter(key: member.key, value: member.value.brief, expected: "no such key")
        }
        let seed = try whole("seed", 0...Int.max)
        var parameters = SynthParameters()
        if let preset = object["preset"] {
            guard case .string(let name) = preset else {
                throw .invalidParameter(key: "preset", value: preset.brief, expected: "a preset's name")
            }
            parameters = try SynthPreset(named: name).parameters(seed: UInt64(seed ?? 0))
        } else if let seed {
            parameters.noiseSeed = UInt64(seed)
        }
        if let wave = try whole("wave_type", 0...3) {
            parameters.wave = SynthParameters.Wave(rawValue: wave)!
        }
        for field in SynthParameters.fields {
            if let value = try number(field.key) { parameters[keyPath: field.path] = value }
        }
        if let volume = try number("sound_vol") { parameters.volume = volume }
        let mutations = try whole("mutate", 0...1000) ?? 0
        parameters = Self.mutate(parameters, seed: UInt64(seed ?? 0), times: mutations)
        let variation = try number("variation") ?? 0
        guard (0...12).contains(variation) else {
            throw .invalidParameter(
                key: "variation", value: "\(variation)", expected: "semitones from 0 to 12")
        }
        try parameters.validate()
        self.init(parameters, variation: variation)
    }

    /// Keys of the JSON form that are not sliders.
    static let ownKeys = ["preset", "seed", "mutate", "variation", "wave_type", "sound_vol"]
    /// jsfxr's JSON keys that do not change the sound here: the engine plays at its own rate and depth.
    static let ignoredKeys = ["oldParams", "sample_rate", "sample_size"]

    /// `times` mutations of `parameters`, each seeded from `seed` and its place in the row.
    static func mutate(_ parameters: SynthParameters, seed: UInt64, times: Int) -> SynthParameters {
        var result = parameters
        var draws = SplitMix64(seed: seed ^ 0x6D75_7461_7465)  // "mutate": apart from the preset's draws
        for _ in 0..<max(times, 0) { result = result.mutated(seed: draws.next()) }
        return result
    }

    /// The full JSON form: every slider, the volume, the noise seed and (when not 0) the variation.
    public var json: String {
        var members = ["\"wave_type\": \(parameters.wave.rawValue)"]
        for field in SynthParameters.fields {
            members.append("\"\(field.key)\": \(Self.number(parameters[keyPath: field.path]))")
        }
        members.append("\"sound_vol\": \(Self.number(parameters.volume))")
        members.append("\"seed\": \(parameters.noiseSeed)")
        if variation != 0 { members.append("\"variation\": \(Self.number(variation))") }
        return "{" + members.joined(separator: ", ") + "}"
    }

    /// jsfxr's share string for the sliders (jsfxr keeps neither the volume nor a noise seed in it).
    public var base58: String { SynthCodec.base58(parameters) }

    /// A number as JSON writes it: whole values without ".0", others at full precision.
    private static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return String(value)
    }
}
