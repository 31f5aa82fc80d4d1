/// A point on a musical grid for a switch or a start to wait for.
public enum MusicQuantize: Sendable, Equatable, CustomStringConvertible {
    /// At once.
    case now
    /// The next beat (now, when the clock is exactly on one).
    case nextBeat
    /// The next bar line.
    case nextBar
    /// The next bar line whose bar count since the first downbeat is a multiple of `n` (1 or more).
    case bars(Int)
    /// The next time the playing track reaches this marker of its catalogue entry.
    case marker(String)

    /// Reads the cue spelling (`now`, `beat`, `bar`, `bars=N` with N 1 or more, `marker=NAME`), as
    /// the CLI's `at=` and the C library's `ss_music_at` write a point.
    /// - Parameter spelling: The text.
    /// - Returns: `nil` when it names no point.
    public init?(spelling: String) {
        switch spelling {
        case "now": self = .now
        case "beat": self = .nextBeat
        case "bar": self = .nextBar
        default:
            if spelling.hasPrefix("bars="), let count = Int(spelling.dropFirst(5)), count >= 1 {
                self = .bars(count)
            } else if spelling.hasPrefix("marker="), spelling.count > 7 {
                self = .marker(String(spelling.dropFirst(7)))
            } else {
                return nil
            }
        }
    }

    /// The cue spelling: `now`, `beat`, `bar`, `bars=N`, `marker=NAME`.
    public var description: String {
        switch self {
        case .now: "now"
        case .nextBeat: "beat"
        case .nextBar: "bar"
        case .bars(let count): "bars=\(count)"
        case .marker(let name): "marker=\(name)"
        }
    }
}

/// Where music stands in its bars: the playing track's position, or a ``MusicClock``'s.
public struct MusicPosition: Sendable, Equatable {
    /// The bar, counting from 1 at the first downbeat (0 and below before it) and on through loops.
    public let bar: Int
    /// The beat in the bar, from 1 to the bar's beat count.
    public let beat: Int
    /// How far into the beat, 0 ..< 1.
    public let fraction: Double

    /// Creates a position.
    /// - Parameters:
    ///   - bar: The bar, from 1 at the first downbeat.
    ///   - beat: The beat in the bar, from 1.
    ///   - fraction: The part of the beat gone, 0 ..< 1.
    public init(bar: Int, beat: Int, fraction: Double) {
        self.bar = bar
        self.beat = beat
        self.fraction = fraction
    }

    /// The position `beats` beats after the first downbeat (fractional, negative before it).
    init(beats: Double, beatsPerBar: Int) {
        let whole = beats.rounded(.down)
        let index = Int(whole)
        let bars = Int((Double(index) / Double(beatsPerBar)).rounded(.down))
        self.init(bar: bars + 1, beat: index - bars * beatsPerBar + 1, fraction: beats - whole)
    }
}

/// One beat of the music, as ``MusicStation/beats()`` and ``MusicStation/onBeat(_:)`` deliver them.
public struct MusicBeat: Sendable, Equatable {
    /// The track it is a beat of.
    public let track: String
    /// The bar, from 1 at the track's first downbeat, counting on through loops.
    public let bar: Int
    /// The beat in the bar, from 1.
    public let beat: Int
    /// When it falls on the engine clock (offline: exactly its frame over the rate).
    public let time: Duration

    /// Creates a beat.
    /// - Parameters:
    ///   - track: The track's name.
    ///   - bar: The bar, from 1.
    ///   - beat: The beat in the bar, from 1.
    ///   - time: When it falls on the engine clock.
    public init(track: String, bar: Int, beat: Int, time: Duration) {
        self.track = track
        self.bar = bar
        self.beat = beat
        self.time = time
    }
}

/// Why music could not be placed on the grid it was asked for.
public enum MusicError: Error, CustomStringConvertible, Equatable {
    /// The sound is unknown or not loaded, or a marker it names is not in its entry.
    case load(SoundLoadError)
    /// A beat, bar or bars point was asked of a track whose entry has no `"bpm"`.
    case noTempo(track: String)
    /// `.bars(n)` with `n` below 1.
    case invalidBars(Int)
    /// `.bars(n)` whose next multiple lies further ahead than the engine clock reaches (about
    /// 650 years of frames).
    case unreachableBars(Int)
    /// A ``MusicClock`` tempo that is not above 0 (or not finite).
    case invalidTempo(Double)
    /// A tempo or intensity glide of a negative duration.
    case invalidGlide(Duration)
    /// An intensity outside 0...1.
    case invalidIntensity(Double)
    /// A music speed outside 0.5...2 (or not finite).
    case invalidSpeed(Double)
    /// A marker point asked of a ``MusicClock``, which has no markers.
    case noMarkers(marker: String)
    /// An effect station was asked for a musical point but follows no music (see
    /// ``EffectStation/init(bank:sounds:timeline:)``).
    case noTimeline

    /// One line naming the track or value and what to do.
    public var description: String {
        switch self {
        case .load(let error): error.description
        case .noTempo(let track):
            "track \"\(track)\" has no tempo, so it has no beats or bars to wait for: add \"bpm\" "
                + "(and \"beatsPerBar\", \"downbeat\") to its catalogue entry, or switch .now"
        case .invalidBars(let count): "bars(\(count)): the number of bars must be 1 or more"
        case .unreachableBars(let count):
            "bars(\(count)): the next multiple of \(count) bars lies beyond what the engine clock reaches; "
                + "use a smaller number of bars"
        case .invalidTempo(let bpm): "tempo \(bpm) bpm: a tempo must be above 0 beats per minute"
        case .invalidIntensity(let value): "intensity \(value): it must be from 0 to 1"
        case .invalidSpeed(let speed): "music speed \(speed): it must be from 0.5 to 2 (1 as recorded)"
        case .invalidGlide(let duration):
            "a glide of \(duration): a glide must take .zero or longer"
        case .noMarkers(let marker):
            "marker \"\(marker)\": a music clock has no markers; wait for a beat or bar, or use the music station"
        case .noTimeline:
            "this effect station follows no music: make it with EffectStation(bank:sounds:timeline:) "
                + "(a SoundSystem's effects follow its music)"
        }
    }
}

/// Something with a musical grid that starts can wait for: the ``MusicStation`` (the playing
/// track's grid) or a ``MusicClock``.
public protocol MusicTimeline: Sendable {
    /// The engine-clock time of the next point `point` names.
    /// - Parameter point: A beat, bar, bars or marker point (`.now` gives `nil`).
    /// - Returns: The time on the engine clock; `nil` to start at once (`.now`, or no music playing).
    /// - Throws: ``MusicError`` when the grid has no such point (no tempo, unknown marker).
    func time(of point: MusicQuantize) throws(MusicError) -> Duration?
}

extension MusicError {
    /// A tween's error as a music call reports it: a negative length is a glide's, a grid start's
    /// error is the grid's own.
    init(_ error: TweenError) {
        switch error {
        case .music(let error): self = error
        case .invalidDuration(let duration): self = .invalidGlide(duration)
        // A resolved tween (TweenSpec) throws neither: the easing is a value and no target is checked.
        case .unknownEasing, .invalidValue: self = .invalidGlide(.zero)
        }
    }
}
