import Glibc

/// A place in the game's own units: columns and rows of a terminal grid, pixels, metres.
///
/// `x` grows to the right and is what pans a sound; `y` and `z` only add distance. On a grid the
/// listener's row is the horizon: a sound on it at the listener's column is at distance 0.
public struct SoundPosition: Sendable, Equatable, CustomStringConvertible {
    /// Left to right: the stereo axis.
    public var x: Float
    /// Rows (or height): distance only.
    public var y: Float
    /// Depth: distance only (0 for a 2D game).
    public var z: Float

    /// Creates a position.
    /// - Parameters:
    ///   - x: Left to right.
    ///   - y: Up or down the grid.
    ///   - z: Depth; 0 in 2D.
    public init(x: Float, y: Float, z: Float = 0) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// `(x, y, z)`.
    public var description: String { "(\(x), \(y), \(z))" }

    /// Throws unless every coordinate is a finite number, so a NaN never reaches OpenAL.
    /// - Parameter name: What the position is, for the message ("listener", "position").
    /// - Throws: ``AudioEngineError/invalidArgument(name:value:expected:)`` naming the coordinate.
    public func check(_ name: String = "position") throws(AudioEngineError) {
        for (axis, value) in [("x", x), ("y", y), ("z", z)] where !value.isFinite {
            throw .invalidArgument(name: "\(name) \(axis)", value: "\(value)", expected: "a finite number")
        }
    }

    func distance(to other: SoundPosition) -> Float {
        let (dx, dy, dz) = (x - other.x, y - other.y, z - other.z)
        return (dx * dx + dy * dy + dz * dz).squareRoot()
    }

    func interpolated(to other: SoundPosition, _ progress: Float) -> SoundPosition {
        SoundPosition(
            x: x + (other.x - x) * progress, y: y + (other.y - y) * progress, z: z + (other.z - z) * progress)
    }
}

/// How loudness falls with distance: OpenAL's clamped distance models, computed by the engine.
///
/// With `d` clamped to `reference...maxDistance`:
/// - ``inverse(reference:maxDistance:rolloff:)``: `reference / (reference + rolloff * (d - reference))`
/// - ``linear(reference:maxDistance:rolloff:)``: `1 - rolloff * (d - reference) / (maxDistance - reference)`
/// - ``exponential(reference:maxDistance:rolloff:)``: `pow(d / reference, -rolloff)`
public enum DistanceModel: Sendable, Equatable {
    /// Distance changes nothing.
    case none
    /// Halves the level (-6 dB) each time the distance doubles past `reference` (with rolloff 1).
    case inverse(reference: Float, maxDistance: Float, rolloff: Float)
    /// Falls in a straight line from full at `reference` to `1 - rolloff` at `maxDistance`.
    case linear(reference: Float, maxDistance: Float, rolloff: Float)
    /// Falls by `rolloff * 6` dB per doubling of the distance past `reference`.
    case exponential(reference: Float, maxDistance: Float, rolloff: Float)

    /// The gain at `distance` (0...1).
    /// - Parameter distance: A distance of 0 or more.
    /// - Returns: The linear gain the model gives there.
    public func gain(atDistance distance: Float) -> Float {
        switch self {
        case .none:
            return 1
        case .inverse(let reference, let maxDistance, let rolloff):
            let d = min(max(distance, reference), maxDistance)
            return reference / (reference + rolloff * (d - reference))
        case .linear(let reference, let maxDistance, let rolloff):
            let d = min(max(distance, reference), maxDistance)
            guard maxDistance > reference else { return 1 }
            return max(0, 1 - rolloff * (d - reference) / (maxDistance - reference))
        case .exponential(let reference, let maxDistance, let rolloff):
            let d = min(max(distance, reference), maxDistance)
            return pow(d / reference, -rolloff)
        }
    }

    /// Throws unless the reference is above 0, the maximum at least the reference and the rolloff 0
    /// or more.
    /// - Throws: ``AudioEngineError/invalidArgument(name:value:expected:)`` naming the value.
    public func check() throws(AudioEngineError) {
        switch self {
        case .none: return
        case .inverse(let reference, let maxDistance, let rolloff),
            .linear(let reference, let maxDistance, let rolloff),
            .exponential(let reference, let maxDistance, let rolloff):
            guard reference.isFinite, reference > 0 else {
                throw .invalidArgument(
                    name: "reference distance", value: "\(reference)", expected: "a finite distance above 0")
            }
            guard !maxDistance.isNaN, maxDistance >= reference else {
                throw .invalidArgument(
                    name: "max distance", value: "\(maxDistance)",
                    expected: "a distance of at least the reference distance \(reference)")
            }
            guard rolloff.isFinite, rolloff >= 0 else {
                throw .invalidArgument(
                    name: "rolloff", value: "\(rolloff)", expected: "a finite number, 0 or more")
            }
        }
    }
}

/// How positions become pan and loudness: the width of the stereo field and the distance model.
///
/// A sound `width / 2` units left of the listener is hard left (pan -1), one as far right hard right
/// (pan 1), in between in proportion; its distance from the listener (all three axes) sets its gain
/// by ``distanceModel``. The default suits an 80-column terminal with the listener on its bottom row.
public struct SpatialLayout: Sendable, Equatable {
    /// The span of `x`, centred on the listener, that covers the stereo field: the screen's width.
    public var width: Float
    /// How loudness falls with distance.
    public var distanceModel: DistanceModel

    /// Creates a layout.
    /// - Parameters:
    ///   - width: The span of `x` from hard left to hard right (above 0).
    ///   - distanceModel: How loudness falls with distance.
    public init(
        width: Float = 80,
        distanceModel: DistanceModel = .inverse(reference: 10, maxDistance: 1000, rolloff: 1)
    ) {
        self.width = width
        self.distanceModel = distanceModel
    }

    /// A layout for a grid of `columns` by `rows`: the width is the grid's, and a sound fades
    /// linearly from full within 2 cells to -12 dB at the grid's far corner.
    /// - Parameters:
    ///   - columns: The grid's width in cells.
    ///   - rows: Its height in cells.
    /// - Returns: The layout.
    public static func grid(columns: Int, rows: Int) -> SpatialLayout {
        let far = (Float(columns * columns) / 4 + Float(rows * rows)).squareRoot()
        return SpatialLayout(
            width: Float(max(columns, 1)),
            distanceModel: .linear(reference: 2, maxDistance: max(far, 3), rolloff: 0.75))
    }

    /// Throws for a width that is not above 0 or a bad distance model.
    /// - Throws: ``AudioEngineError/invalidArgument(name:value:expected:)`` naming the value.
    public func check() throws(AudioEngineError) {
        guard width.isFinite, width > 0 else {
            throw .invalidArgument(
                name: "stereo field width", value: "\(width)", expected: "a finite width above 0")
        }
        try distanceModel.check()
    }

    /// The pan (-1...1) and distance gain of a sound at `position` heard from `listener`: what the
    /// engine gives a positioned voice.
    /// - Parameters:
    ///   - position: The sound's place.
    ///   - listener: The listener's.
    /// - Returns: The pan and the distance model's gain.
    public func placement(of position: SoundPosition, listener: SoundPosition) -> (pan: Float, gain: Float) {
        let pan = max(-1, min(1, (position.x - listener.x) / (width / 2)))
        let gain = distanceModel.gain(atDistance: position.distance(to: listener))
        return (pan.isFinite ? pan : 0, gain.isFinite ? gain : 0)
    }
}

/// A position gliding from one place to another over a span of render-clock frames.
struct PositionRamp: Equatable {
    var from: SoundPosition
    var to: SoundPosition
    var start: Int64
    var end: Int64

    static func constant(_ position: SoundPosition) -> PositionRamp {
        PositionRamp(from: position, to: position, start: 0, end: 0)
    }

    func value(at frame: Int64) -> SoundPosition {
        guard frame < end, end > start else { return to }
        guard frame > start else { return from }
        return from.interpolated(to: to, Float(frame - start) / Float(end - start))
    }

    func isDone(at frame: Int64) -> Bool { frame >= end }

    func retargeted(to target: SoundPosition, at frame: Int64, over frames: Int64) -> PositionRamp {
        PositionRamp(from: value(at: frame), to: target, start: frame, end: frame + max(frames, 0))
    }
}
