import Glibc

/// The shape of a ``Tween``: how far from its start value to its end value it is at each point of
/// its duration.
public enum Easing: String, Sendable, CaseIterable, CustomStringConvertible {
    /// A straight line.
    case linear
    /// Slow start, `t²`.
    case inQuad = "in-quad"
    /// Slow end, `1 - (1 - t)²`.
    case outQuad = "out-quad"
    /// Slow start and end: `2t²` to the middle, then `1 - (2 - 2t)² / 2`.
    case inOutQuad = "in-out-quad"
    /// Slower start, `t³`.
    case inCubic = "in-cubic"
    /// Slower end, `1 - (1 - t)³`.
    case outCubic = "out-cubic"
    /// Slower start and end: `4t³` to the middle, then `1 - (2 - 2t)³ / 2`.
    case inOutCubic = "in-out-cubic"
    /// Equal power, as a crossfade's halves: `sin(t·π/2)` for a rise, `1 - cos(t·π/2)` for a fall,
    /// so a voice faded in and another faded out with it keep the sum of their powers.
    case equalPower = "equal-power"

    /// Reads an easing by its name (`linear`, `in-quad`, `out-quad`, `in-out-quad`, `in-cubic`,
    /// `out-cubic`, `in-out-cubic`, `equal-power`), as the CLI and catalogue spell it.
    /// - Parameter name: The name.
    /// - Throws: ``TweenError/unknownEasing(_:)`` naming the value and the known names.
    public init(named name: String) throws(TweenError) {
        guard let easing = Easing(rawValue: name) else { throw .unknownEasing(name) }
        self = easing
    }

    /// The name, as ``init(named:)`` reads it.
    public var description: String { rawValue }

    /// The part of the way from start to end at `t` (0...1 of the duration).
    /// - Parameters:
    ///   - t: The part of the duration gone, 0...1.
    ///   - rising: Whether the value goes up (only ``equalPower`` cares).
    /// - Returns: 0 at the start, 1 at the end.
    public func progress(_ t: Double, rising: Bool = true) -> Double {
        let t = min(max(t, 0), 1)
        switch self {
        case .linear: return t
        case .inQuad: return t * t
        case .outQuad: return 1 - (1 - t) * (1 - t)
        case .inOutQuad: return t < 0.5 ? 2 * t * t : 1 - pow(2 - 2 * t, 2) / 2
        case .inCubic: return t * t * t
        case .outCubic: return 1 - pow(1 - t, 3)
        case .inOutCubic: return t < 0.5 ? 4 * t * t * t : 1 - pow(2 - 2 * t, 3) / 2
        case .equalPower: return rising ? sin(t * .pi / 2) : 1 - cos(t * .pi / 2)
        }
    }

    /// The integral of ``progress(_:rising:)`` from 0 to `t`, for a tempo tween's beat count
    /// (Simpson's rule on each smooth piece: exact for these polynomials, within 1e-9 for the sine).
    func integral(to t: Double, rising: Bool) -> Double {
        let t = min(max(t, 0), 1)
        func simpson(_ a: Double, _ b: Double) -> Double {
            guard b > a else { return 0 }
            let steps = 32
            let h = (b - a) / Double(steps)
            var sum = progress(a, rising: rising) + progress(b, rising: rising)
            for i in 1..<steps { sum += progress(a + Double(i) * h, rising: rising) * (i % 2 == 1 ? 4 : 2) }
            return sum * h / 3
        }
        return simpson(0, min(t, 0.5)) + simpson(0.5, t)
    }
}

/// How a value moves to a new one: over a duration, along an easing, from now, from a time on the
/// engine clock, or from a musical point.
///
/// ```swift
/// try engine.setVolume(0, for: voice, tween: Tween(.seconds(2), easing: .outCubic))
/// try sound.music.setIntensity(1, tween: Tween(.seconds(4), start: .music(.nextBar, of: sound.music)))
/// ```
public struct Tween: Sendable {
    /// When a tween begins.
    public enum Start: Sendable {
        /// At once.
        case now
        /// At a time on the engine clock (offline: that frame exactly).
        case at(Duration)
        /// At the next beat, bar or marker of a musical grid (the music station or a ``MusicClock``).
        case music(MusicQuantize, of: any MusicTimeline)
    }

    /// How long it takes; zero jumps at its start.
    public var duration: Duration
    /// Its shape.
    public var easing: Easing
    /// When it begins.
    public var start: Start

    /// Creates a tween.
    /// - Parameters:
    ///   - duration: How long it takes, zero or more.
    ///   - easing: Its shape; linear by default.
    ///   - start: When it begins; now by default.
    public init(_ duration: Duration, easing: Easing = .linear, start: Start = .now) {
        self.duration = duration
        self.easing = easing
        self.start = start
    }

    /// Its duration in seconds, checked.
    /// - Throws: ``TweenError/invalidDuration(_:)`` for a negative one.
    func seconds() throws(TweenError) -> Double {
        let seconds = duration.inSeconds
        guard seconds >= 0, seconds.isFinite else { throw .invalidDuration(duration) }
        return seconds
    }

    /// The engine-clock time it begins at (`nil`: now).
    /// - Throws: ``TweenError/music(_:)`` when the grid has no such point.
    func startTime() throws(TweenError) -> Duration? {
        switch start {
        case .now: return nil
        case .at(let time): return time
        case .music(let point, let timeline):
            do { return try timeline.time(of: point) } catch { throw .music(error) }
        }
    }
}

/// Why a tween could not be made.
public enum TweenError: Error, CustomStringConvertible, Equatable {
    /// An easing name that is not one of ``Easing``'s.
    case unknownEasing(String)
    /// A negative duration.
    case invalidDuration(Duration)
    /// A target value out of range: what it is for, the value, what was expected.
    case invalidValue(name: String, value: Double, expected: String)
    /// A musical start the grid has no point for.
    case music(MusicError)

    /// One line naming the value and what to do.
    public var description: String {
        switch self {
        case .unknownEasing(let name):
            "unknown easing \"\(name)\": use one of "
                + Easing.allCases.map(\.rawValue).joined(separator: ", ")
        case .invalidDuration(let duration): "a tween of \(duration): a tween must take 0 seconds or more"
        case .invalidValue(let name, let value, let expected): "\(name) \(value): expected \(expected)"
        case .music(let error): error.description
        }
    }
}
