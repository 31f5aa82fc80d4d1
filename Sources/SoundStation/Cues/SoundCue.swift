/// One timed instruction of a cue list, as the `soundstation render` and `play` commands take them:
/// `TIME:effect:NAME[:pan=X|:pos=X,Y][:at=POINT]`, `TIME:music:NAME[:fade=S|:crossfade=S][:at=POINT]`,
/// `TIME:stop-music[:fade=S]`, `TIME:pause`, `TIME:resume`, `TIME:volume:BUS:GAIN`, for space and
/// colour `TIME:listener:X,Y`, `TIME:filter:BUS:lowpass=HZ|highpass=HZ|off`,
/// `TIME:reverb:BUS:PRESET|off`, for musical time `TIME:intensity:X[:over=S[:ease=E]]` and
/// `TIME:tempo:BPM[:over=S[:ease=E]]`, where `POINT` is `now`, `beat`, `bar`, `bars=N` or
/// `marker=NAME` on the playing music's grid (or, once a `tempo` cue has started the cue list's
/// clock, an effect's beat or bar on that clock).
public struct SoundCue: Sendable, Equatable, CustomStringConvertible {
    /// What the cue does.
    public enum Action: Sendable, Equatable {
        /// Fire a one-shot effect.
        case effect(name: String)
        /// Switch the music to a track, cutting, fading in, or crossfading from the current one.
        case music(name: String, transition: MusicTransition)
        /// Stop the music, at once or fading out over `fade`.
        case stopMusic(fade: Duration)
        /// Pause every sound.
        case pause
        /// Resume every paused sound.
        case resume
        /// Set a bus's volume.
        case volume(bus: Bus, gain: Float)
        /// Fire a one-shot effect at a pan or a position.
        case placedEffect(name: String, placement: Placement)
        /// Move the listener (positions are heard from it).
        case listener(SoundPosition)
        /// Filter a bus, or stop filtering it.
        case filter(bus: Bus, filter: CueFilter)
        /// Give a bus a reverb from the EFX presets, or take it away (`nil`).
        case reverb(bus: Bus, preset: ReverbPreset?)
        /// Move the layered music's intensity (0...1) along a tween lasting `over`.
        case intensity(Double, over: Duration, easing: Easing)
        /// Set the tempo of the cue list's clock: the first starts it (bar 1 there), later ones glide
        /// it along a tween lasting `over`.
        case tempo(bpm: Double, over: Duration, easing: Easing)
    }

    /// Where a placed effect is heard.
    public enum Placement: Sendable, Equatable {
        /// -1 left ... 1 right.
        case pan(Float)
        /// A position in the game's units, heard from the listener.
        case position(SoundPosition)
    }

    /// A bus filter as a cue gives it: a real cutoff in hertz (see ``SoundFilter/lowpass(cutoff:q:)``), or off.
    public enum CueFilter: Sendable, Equatable {
        case lowpass(hertz: Float)
        case highpass(hertz: Float)
        case off

        /// The engine's filter for this cue; `nil` for off.
        public var filter: SoundFilter? {
            switch self {
            case .lowpass(let hertz): .lowpass(cutoff: hertz)
            case .highpass(let hertz): .highpass(cutoff: hertz)
            case .off: nil
            }
        }
    }

    /// When, from the start of the cue list (the engine clock's zero).
    public var time: Duration
    /// What happens then.
    public var action: Action
    /// For music and effects: the point of the playing music's grid it waits for after `time`.
    public var quantize: MusicQuantize

    /// Creates a cue.
    /// - Parameters:
    ///   - time: When, from the start.
    ///   - action: What happens.
    ///   - quantize: For music and effects, the grid point to wait for; `.now` for none.
    public init(time: Duration, action: Action, quantize: MusicQuantize = .now) {
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
        self.time = .seconds(time)
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
            let usage = "T:effect:NAME[:pan=X|:pos=X,Y][:at=beat|bar|bars=N|marker=M]"
            guard (1...2).contains(arguments.count), !arguments[0].isEmpty else {
                throw .badArguments(cue: text, usage: usage)
            }
            guard arguments.count == 2 else {
                action = .effect(name: arguments[0])
                return
            }
            if arguments[1].hasPrefix("pan=") {
                let value = String(arguments[1].dropFirst(4))
                guard let pan = Float(value), pan.isFinite, (-1...1).contains(pan) else {
                    throw .badValue(cue: text, value: value, expected: "a pan in -1...1 (-1 left, 1 right)")
                }
                action = .placedEffect(name: arguments[0], placement: .pan(pan))
            } else if arguments[1].hasPrefix("pos=") {
                let position = try Self.position(String(arguments[1].dropFirst(4)), cue: text)
                action = .placedEffect(name: arguments[0], placement: .position(position))
            } else {
                throw .badArguments(cue: text, usage: usage)
            }
        case "listener":
            guard arguments.count == 1 else { throw .badArguments(cue: text, usage: "T:listener:X,Y") }
            action = .listener(try Self.position(arguments[0], cue: text))
        case "filter":
            let usage = "T:filter:BUS:lowpass=HZ|highpass=HZ|off"
            guard arguments.count == 2 else { throw .badArguments(cue: text, usage: usage) }
            let bus = try Self.bus(arguments[0], cue: text)
            if arguments[1] == "off" {
                action = .filter(bus: bus, filter: .off)
            } else if let hertz = try Self.cutoff("lowpass", in: arguments[1], cue: text) {
                action = .filter(bus: bus, filter: .lowpass(hertz: hertz))
            } else if let hertz = try Self.cutoff("highpass", in: arguments[1], cue: text) {
                action = .filter(bus: bus, filter: .highpass(hertz: hertz))
            } else {
                throw .badArguments(cue: text, usage: usage)
            }
        case "reverb":
            guard arguments.count == 2 else {
                throw .badArguments(cue: text, usage: "T:reverb:BUS:PRESET|off")
            }
            let bus = try Self.bus(arguments[0], cue: text)
            if arguments[1] == "off" {
                action = .reverb(bus: bus, preset: nil)
            } else if let preset = ReverbPreset.named(arguments[1]) {
                action = .reverb(bus: bus, preset: preset)
            } else {
                throw .badValue(
                    cue: text, value: arguments[1],
                    expected: "a reverb preset ("
                        + ReverbPreset.allCases.map(\.rawValue).joined(separator: ", ")
                        + ") or off")
            }
        case "music":
            let usage = "T:music:NAME[:fade=S|:crossfade=S][:at=now|beat|bar|bars=N|marker=M]"
            guard (1...2).contains(arguments.count), !arguments[0].isEmpty else {
                throw .badArguments(cue: text, usage: usage)
            }
            var transition = MusicTransition.cut
            if arguments.count == 2 {
                if let seconds = try Self.option("fade", in: arguments[1], cue: text) {
                    transition = .fadeIn(.seconds(seconds))
                } else if let seconds = try Self.option("crossfade", in: arguments[1], cue: text) {
                    transition = .crossfade(.seconds(seconds))
                } else {
                    throw .badArguments(cue: text, usage: usage)
                }
            }
            action = .music(name: arguments[0], transition: transition)
        case "stop-music":
            guard arguments.count <= 1 else { throw .badArguments(cue: text, usage: "T:stop-music[:fade=S]") }
            var fade = Duration.zero
            if let argument = arguments.first {
                guard let seconds = try Self.option("fade", in: argument, cue: text) else {
                    throw .badArguments(cue: text, usage: "T:stop-music[:fade=S]")
                }
                fade = .seconds(seconds)
            }
            action = .stopMusic(fade: fade)
        case "pause", "resume":
            guard arguments.isEmpty else { throw .badArguments(cue: text, usage: "T:\(parts[1])") }
            action = parts[1] == "pause" ? .pause : .resume
        case "intensity", "tempo":
            let tempo = parts[1] == "tempo"
            let usage = "T:\(parts[1]):\(tempo ? "BPM" : "X")[:over=S[:ease=NAME]]"
            guard (1...3).contains(arguments.count), let value = Double(arguments[0]), value.isFinite else {
                throw arguments.isEmpty
                    ? .badArguments(cue: text, usage: usage)
                    : .badValue(
                        cue: text, value: arguments[0],
                        expected: tempo ? "a tempo in beats per minute" : "an intensity")
            }
            guard tempo ? value > 0 && value <= 1000 : (0...1).contains(value) else {
                throw .badValue(
                    cue: text, value: arguments[0],
                    expected: tempo
                        ? "a tempo above 0 and at most 1000 beats per minute" : "an intensity from 0 to 1")
            }
            var over = 0.0
            var easing = Easing.linear
            if arguments.count >= 2 {
                guard let seconds = try Self.option("over", in: arguments[1], cue: text) else {
                    throw .badArguments(cue: text, usage: usage)
                }
                over = seconds
            }
            if arguments.count == 3 {
                guard arguments[2].hasPrefix("ease=") else { throw .badArguments(cue: text, usage: usage) }
                let name = String(arguments[2].dropFirst(5))
                do { easing = try Easing(named: name) } catch {
                    throw .badValue(
                        cue: text, value: name,
                        expected: "an easing (" + Easing.allCases.map(\.rawValue).joined(separator: ", ")
                            + ")")
                }
            }
            action =
                tempo
                ? .tempo(bpm: value, over: .seconds(over), easing: easing)
                : .intensity(value, over: .seconds(over), easing: easing)
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
        case (.effect, .now), (.music, .now), (.placedEffect, .now): return actionDescription
        case (.effect, let point), (.music, let point), (.placedEffect, let point):
            return actionDescription + ":at=\(point)"
        default: return actionDescription
        }
    }

    private var actionDescription: String {
        let time = self.time.inSeconds.formatted
        switch action {
        case .effect(let name): return "\(time):effect:\(name)"
        case .music(let name, .cut): return "\(time):music:\(name)"
        case .music(let name, .fadeIn(let fade)):
            return "\(time):music:\(name):fade=\(fade.inSeconds.formatted)"
        case .music(let name, .crossfade(let fade)):
            return "\(time):music:\(name):crossfade=\(fade.inSeconds.formatted)"
        case .stopMusic(let fade):
            return fade > .zero ? "\(time):stop-music:fade=\(fade.inSeconds.formatted)" : "\(time):stop-music"
        case .pause: return "\(time):pause"
        case .resume: return "\(time):resume"
        case .volume(let bus, let gain): return "\(time):volume:\(bus.rawValue):\(Double(gain).formatted)"
        case .placedEffect(let name, .pan(let pan)):
            return "\(time):effect:\(name):pan=\(Double(pan).formatted)"
        case .placedEffect(let name, .position(let p)):
            return "\(time):effect:\(name):pos=\(Double(p.x).formatted),\(Double(p.y).formatted)"
        case .listener(let p): return "\(time):listener:\(Double(p.x).formatted),\(Double(p.y).formatted)"
        case .filter(let bus, .off): return "\(time):filter:\(bus.rawValue):off"
        case .filter(let bus, .lowpass(let hertz)):
            return "\(time):filter:\(bus.rawValue):lowpass=\(Double(hertz).formatted)"
        case .filter(let bus, .highpass(let hertz)):
            return "\(time):filter:\(bus.rawValue):highpass=\(Double(hertz).formatted)"
        case .reverb(let bus, let preset):
            return "\(time):reverb:\(bus.rawValue):\(preset?.rawValue ?? "off")"
        case .intensity(let value, let over, let easing):
            return "\(time):intensity:\(value.formatted)" + Self.tweenDescription(over.inSeconds, easing)
        case .tempo(let bpm, let over, let easing):
            return "\(time):tempo:\(bpm.formatted)" + Self.tweenDescription(over.inSeconds, easing)
        }
    }

    /// `:over=S[:ease=E]` when the change glides, and nothing when it is at once.
    private static func tweenDescription(_ over: Double, _ easing: Easing) -> String {
        guard over > 0 || easing != .linear else { return "" }
        return ":over=\(over.formatted)" + (easing == .linear ? "" : ":ease=\(easing)")
    }

    /// Reads a grid point: `now`, `beat`, `bar`, `bars=N` or `marker=NAME`.
    private static func quantize(_ text: String, cue: String) throws(SoundCueError) -> MusicQuantize {
        guard let point = MusicQuantize(spelling: text) else {
            throw .badValue(
                cue: cue, value: text,
                expected: "a grid point: now, beat, bar, bars=N (N 1 or more) or marker=NAME")
        }
        return point
    }

    /// Checks what depends on the engine: a filter's cutoff must be at most half its sample rate.
    /// - Parameter sampleRate: The engine's rate.
    /// - Throws: ``SoundCueError/badValue(cue:value:expected:)`` naming the cutoff.
    public func check(sampleRate: Int) throws(SoundCueError) {
        guard case .filter(_, let filter) = action else { return }
        switch filter {
        case .lowpass(let hertz), .highpass(let hertz):
            guard hertz <= Float(sampleRate) / 2 else {
                throw .badValue(
                    cue: description, value: Double(hertz).formatted,
                    expected:
                        "a cutoff in hertz of at most \(sampleRate / 2) (half the sample rate \(sampleRate))")
            }
        case .off: return
        }
    }

    /// Reads `X,Y` as a position of finite numbers.
    private static func position(_ text: String, cue: String) throws(SoundCueError) -> SoundPosition {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        let numbers = parts.compactMap { Float($0) }
        guard parts.count == 2, numbers.count == 2 else {
            throw .badValue(cue: cue, value: text, expected: "a position X,Y")
        }
        for (part, number) in zip(parts, numbers) where !number.isFinite {
            throw .badValue(cue: cue, value: String(part), expected: "a finite coordinate")
        }
        return SoundPosition(x: numbers[0], y: numbers[1])
    }

    private static func bus(_ text: String, cue: String) throws(SoundCueError) -> Bus {
        guard let bus = Bus(rawValue: text) else {
            throw .badValue(cue: cue, value: text, expected: "master, music, effects or voice")
        }
        return bus
    }

    /// Reads `key=HZ`, returning nil when the key differs.
    private static func cutoff(_ key: String, in text: String, cue: String) throws(SoundCueError) -> Float? {
        guard text.hasPrefix(key + "=") else { return nil }
        let value = String(text.dropFirst(key.count + 1))
        guard let hertz = Float(value), hertz.isFinite, hertz > 0, hertz <= 96_000 else {
            throw .badValue(cue: cue, value: value, expected: "a cutoff in hertz above 0")
        }
        return hertz
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
            "bad event \"\(cue)\": unknown kind \"\(kind)\" (use effect, music, stop-music, pause, resume, volume, listener, filter, reverb, intensity or tempo)"
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
