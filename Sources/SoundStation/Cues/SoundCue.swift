/// One timed instruction of a cue list, as the `soundstation render` and `play` commands take them:
/// `TIME:effect:NAME[:at=POINT]`, `TIME:music:NAME[:fade=S|:crossfade=S][:at=POINT]`,
/// `TIME:stop-music[:fade=S]`, `TIME:pause`, `TIME:resume`, `TIME:volume:BUS:GAIN`, where `POINT` is
/// `now`, `beat`, `bar`, `bars=N` or `marker=NAME` on the playing music's grid.
public struct SoundCue: Sendable, Equatable, CustomStringConvertible {
    /// What the cue does.
    public enum Action: Sendable, Equatable {
        /// Fire a one-shot effect.
        case effect(name: String)
        /// Switch the music to a track, cutting, fading in, or crossfading from the current one.
        case music(name: String, transition: MusicTransition)
        /// Stop the music, at once or fading out over `fade` seconds.
        case stopMusic(fade: Double)
        /// Pause every sound.
        case pause
        /// Resume every paused sound.
        case resume
        /// Set a bus's volume.
        case volume(bus: Bus, gain: Float)
    }

    /// Seconds from the start of the cue list.
    public var time: Double
    /// What happens then.
    public var action: Action
    /// For music and effects: the point of the playing music's grid it waits for after `time`.
    public var quantize: MusicQuantize

    /// Creates a cue.
    /// - Parameters:
    ///   - time: Seconds from the start.
    ///   - action: What happens.
    ///   - quantize: For music and effects, the grid point to wait for; `.now` for none.
    public init(time: Double, action: Action, quantize: MusicQuantize = .now) {
        self.time = time
        self.action = action
        self.quantize = quantize
    }

    /// Parses one cue.
    /// - Parameter text: For example `1.5:effect:reward` or `0:music:main:crossfade=2`.
    /// - Throws: ``SoundCueError`` naming the cue and the part that is wrong.
    public init(parsing text: String) throws(SoundCueError) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 2, let time = Double(parts[0]), time.isFinite, time >= 0 else {
            throw .badTime(cue: text)
        }
        self.time = time
        var arguments = Array(parts.dropFirst(2))
        quantize = .now
        if ["effect", "music"].contains(parts[1]), arguments.count >= 2, let last = arguments.last,
            last.hasPrefix("at=")
        {
            quantize = try Self.quantize(String(last.dropFirst(3)), cue: text)
            arguments.removeLast()
        }
        switch parts[1] {
        case "effect":
            guard arguments.count == 1, !arguments[0].isEmpty else {
                throw .badArguments(cue: text, usage: "T:effect:NAME[:at=beat|bar|bars=N|marker=M]")
            }
            action = .effect(name: arguments[0])
        case "music":
            let usage = "T:music:NAME[:fade=S|:crossfade=S][:at=now|beat|bar|bars=N|marker=M]"
            guard (1...2).contains(arguments.count), !arguments[0].isEmpty else {
                throw .badArguments(cue: text, usage: usage)
            }
            var transition = MusicTransition.cut
            if arguments.count == 2 {
                if let seconds = try Self.option("fade", in: arguments[1], cue: text) {
                    transition = .fadeIn(seconds)
                } else if let seconds = try Self.option("crossfade", in: arguments[1], cue: text) {
                    transition = .crossfade(seconds)
                } else {
                    throw .badArguments(cue: text, usage: usage)
                }
            }
            action = .music(name: arguments[0], transition: transition)
        case "stop-music":
            guard arguments.count <= 1 else { throw .badArguments(cue: text, usage: "T:stop-music[:fade=S]") }
            var fade = 0.0
            if let argument = arguments.first {
                guard let seconds = try Self.option("fade", in: argument, cue: text) else {
                    throw .badArguments(cue: text, usage: "T:stop-music[:fade=S]")
                }
                fade = seconds
            }
            action = .stopMusic(fade: fade)
        case "pause", "resume":
            guard arguments.isEmpty else { throw .badArguments(cue: text, usage: "T:\(parts[1])") }
            action = parts[1] == "pause" ? .pause : .resume
        case "volume":
            guard arguments.count == 2 else { throw .badArguments(cue: text, usage: "T:volume:BUS:GAIN") }
            guard let bus = Bus(rawValue: arguments[0]) else {
                throw .badValue(cue: text, value: arguments[0], expected: "master, music, effects or voice")
            }
            guard let gain = Float(arguments[1]), gain.isFinite, gain >= 0 else {
                throw .badValue(
                    cue: text, value: arguments[1], expected: "a gain of 0 or more (1 is unchanged)")
            }
            action = .volume(bus: bus, gain: gain)
        default:
            throw .unknownKind(cue: text, kind: parts[1])
        }
    }

    /// The cue in the form ``init(parsing:)`` reads.
    public var description: String {
        switch (action, quantize) {
        case (.effect, .now), (.music, .now): return actionDescription
        case (.effect, let point), (.music, let point): return actionDescription + ":at=\(point)"
        default: return actionDescription
        }
    }

    private var actionDescription: String {
        let time = self.time.formatted
        switch action {
        case .effect(let name): return "\(time):effect:\(name)"
        case .music(let name, .cut): return "\(time):music:\(name)"
        case .music(let name, .fadeIn(let seconds)): return "\(time):music:\(name):fade=\(seconds.formatted)"
        case .music(let name, .crossfade(let seconds)):
            return "\(time):music:\(name):crossfade=\(seconds.formatted)"
        case .stopMusic(let fade):
            return fade > 0 ? "\(time):stop-music:fade=\(fade.formatted)" : "\(time):stop-music"
        case .pause: return "\(time):pause"
        case .resume: return "\(time):resume"
        case .volume(let bus, let gain): return "\(time):volume:\(bus.rawValue):\(Double(gain).formatted)"
        }
    }

    /// Reads a grid point: `now`, `beat`, `bar`, `bars=N` or `marker=NAME`.
    private static func quantize(_ text: String, cue: String) throws(SoundCueError) -> MusicQuantize {
        let expected = "a grid point: now, beat, bar, bars=N (N 1 or more) or marker=NAME"
        switch text {
        case "now": return .now
        case "beat": return .nextBeat
        case "bar": return .nextBar
        default:
            if text.hasPrefix("bars=") {
                guard let count = Int(text.dropFirst(5)), count >= 1 else {
                    throw .badValue(cue: cue, value: text, expected: expected)
                }
                return .bars(count)
            }
            if text.hasPrefix("marker="), text.count > 7 { return .marker(String(text.dropFirst(7))) }
            throw .badValue(cue: cue, value: text, expected: expected)
        }
    }

    /// Reads `key=SECONDS`, returning nil when the key differs.
    private static func option(_ key: String, in text: String, cue: String) throws(SoundCueError) -> Double? {
        guard text.hasPrefix(key + "=") else { return nil }
        let value = String(text.dropFirst(key.count + 1))
        guard let seconds = Double(value), seconds.isFinite, seconds >= 0 else {
            throw .badValue(cue: cue, value: value, expected: "\(key) in seconds, 0 or more")
        }
        return seconds
    }
}

/// Why a cue could not be read.
public enum SoundCueError: Error, CustomStringConvertible, Equatable {
    /// The part before the first colon is not a time in seconds.
    case badTime(cue: String)
    /// The kind after the time is not one the cue list knows.
    case unknownKind(cue: String, kind: String)
    /// The kind is known but its arguments do not fit.
    case badArguments(cue: String, usage: String)
    /// An argument has a value out of range.
    case badValue(cue: String, value: String, expected: String)

    /// One line naming the cue and what to write instead.
    public var description: String {
        switch self {
        case .badTime(let cue):
            "bad event \"\(cue)\": it must start with a time in seconds, e.g. 1.5:effect:reward"
        case .unknownKind(let cue, let kind):
            "bad event \"\(cue)\": unknown kind \"\(kind)\" (use effect, music, stop-music, pause, resume or volume)"
        case .badArguments(let cue, let usage): "bad event \"\(cue)\": expected \(usage)"
        case .badValue(let cue, let value, let expected):
            "bad event \"\(cue)\": \"\(value)\" is not \(expected)"
        }
    }
}

extension Double {
    /// Seconds without a trailing ".0", so cues print the way people write them.
    fileprivate var formatted: String {
        self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self)
    }
}
