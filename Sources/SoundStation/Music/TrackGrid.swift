/// Where a playing track is, on the engine's render clock, and where its beats, bars and markers
/// fall.
///
/// Positions are worked out from the frame the track started on and the frame it started from, the
/// way OpenAL plays it (the loop wraps at its end frame), so they are exact offline, to the frame,
/// through any number of loops. "Unwrapped" positions count track frames as if the loop were laid
/// out end to end; iteration `k` of the loop covers unwrapped frames `[loopEnd + (k-1)*L, loopEnd +
/// k*L)`, shifted down by ``edge`` so a beat a hair before a loop's end counts once, as the next
/// loop's first.
struct TrackGrid: Sendable {
    let name: String
    let tempo: Tempo?
    let markers: [String: Double]
    /// The file's rate; the engine resamples it to its own.
    let trackRate: Double
    let frameCount: Int
    /// The loop body in track frames, or `nil` for a track that plays once.
    let loop: Range<Int>?
    /// Whole beats in one pass of the loop body (checked whole bars at load).
    let loopBeats: Int

    /// Half-open bounds are shifted down by this many track frames (more than the whole-bar
    /// tolerance), so a beat that the rounding of loop points puts just before the loop's end is
    /// counted once, as the next loop's first beat.
    static let edge = SoundEntry.barTolerance + 0.01

    init(entry: SoundEntry, sampleRate: Int, frameCount: Int) {
        name = entry.name
        tempo = entry.tempo
        markers = entry.markers
        trackRate = Double(max(sampleRate, 1))
        self.frameCount = frameCount
        loop = entry.loopBody(sampleRate: sampleRate, frameCount: frameCount)
        if let tempo, let loop {
            loopBeats = Int((Double(loop.count) / trackRate / tempo.secondsPerBeat).rounded())
        } else {
            loopBeats = 0
        }
    }

    /// The frame (of the file) a start position names.
    func frame(ofSeconds seconds: Double) -> Int { Int((seconds * trackRate).rounded()) }

    /// Which pass of the loop an unwrapped position is in (0: the first, with any intro).
    func iteration(ofUnwrapped unwrapped: Double) -> Int {
        guard let loop else { return 0 }
        let end = Double(loop.upperBound) - Self.edge
        guard unwrapped >= end else { return 0 }
        return Int(((unwrapped - end) / Double(loop.count)).rounded(.down)) + 1
    }

    /// The positions in the file that pass `k` plays, as a half-open range in track frames.
    private func bounds(ofIteration k: Int) -> (lower: Double, upper: Double) {
        guard let loop else { return (-.infinity, Double(frameCount)) }
        let upper = Double(loop.upperBound) - Self.edge
        return (k == 0 ? -.infinity : Double(loop.lowerBound) - Self.edge, upper)
    }

    private func shift(_ k: Int) -> Double { Double(k * (loop?.count ?? 0)) }

    /// The first unwrapped position at or after `from` where the file's position is `origin + j *
    /// step` for a whole `j` (or exactly `origin` when `step` is nil).
    /// - Returns: The unwrapped position, the pass and the file position; `nil` when the track ends
    ///   first.
    func next(origin: Double, step: Double?, from unwrapped: Double) -> (
        unwrapped: Double, k: Int, at: Double
    )? {
        let first = iteration(ofUnwrapped: unwrapped)
        let passes = loop == nil ? 1 : 3
        for k in first..<first + passes {
            let (lower, upper) = bounds(ofIteration: k)
            let start = max(lower, k == first ? unwrapped - shift(k) : lower)
            let position: Double
            if let step {
                position = origin + ((start - origin) / step - 1e-9).rounded(.up) * step
            } else {
                position = origin
                if position < start { continue }
            }
            if position < upper { return (position + shift(k), k, position) }
        }
        return nil
    }

    /// The beat count since the downbeat (negative before it) of a file position in pass `k`.
    func beatIndex(at position: Double, k: Int, tempo: Tempo) -> Int {
        let beatFrames = tempo.secondsPerBeat * trackRate
        return Int(((position - tempo.downbeat * trackRate) / beatFrames).rounded()) + k * loopBeats
    }

    /// The beats (unwrapped, fractional) since the downbeat at an unwrapped position.
    func beats(atUnwrapped unwrapped: Double, tempo: Tempo) -> Double {
        let k = iteration(ofUnwrapped: unwrapped)
        let position = unwrapped - shift(k)
        let beatFrames = tempo.secondsPerBeat * trackRate
        return (position - tempo.downbeat * trackRate) / beatFrames + Double(k * loopBeats)
    }
}

/// Where a playing track is tied to the engine clock: at engine frame `frame` the file was at
/// `position` (track frames), and it moves at the file's rate from there.
struct GridAnchor: Sendable {
    var frame: Int64
    /// The track position at ``frame`` (fractional once the speed has changed).
    var position: Double
    let engineRate: Double
    /// The speed at ``frame`` and, when it glides, where to and over how many engine frames: the track
    /// moves on by the integral of the speed (``MusicStation/setSpeed(_:tween:)``).
    var speed = 1.0
    var targetSpeed = 1.0
    var glideFrames: Int64 = 0

    init(frame: Int64, position: Int, engineRate: Double, speed: Double = 1) {
        self.frame = frame
        self.position = Double(position)
        self.engineRate = engineRate
        self.speed = speed
        self.targetSpeed = speed
    }

    /// Speed times engine frames from the anchor to `t` frames after it.
    private func area(_ t: Double) -> Double {
        guard t > 0, glideFrames > 0 else { return t * (t > 0 ? targetSpeed : speed) }
        let length = Double(glideFrames)
        let slope = (targetSpeed - speed) / length
        let inside = min(t, length)
        return speed * inside + slope * inside * inside / 2 + targetSpeed * max(0, t - length)
    }

    /// The engine frames after the anchor at which ``area(_:)`` reaches `target`.
    private func time(toReach target: Double) -> Double {
        guard target > 0 else { return target / speed }
        guard glideFrames > 0, targetSpeed != speed else { return target / targetSpeed }
        let length = Double(glideFrames)
        let whole = area(length)
        if target >= whole { return length + (target - whole) / targetSpeed }
        let slope = (targetSpeed - speed) / length
        return (-speed + (speed * speed + 2 * slope * target).squareRoot()) / slope
    }

    /// The unwrapped track position at an engine frame.
    func unwrapped(atFrame frame: Int64, grid: TrackGrid) -> Double {
        position + area(Double(frame - self.frame)) * grid.trackRate / engineRate
    }

    /// The engine frame (rounded) at which the track reaches an unwrapped position.
    func frame(ofUnwrapped unwrapped: Double, grid: TrackGrid) -> Int64 {
        frame + Int64(time(toReach: (unwrapped - position) * engineRate / grid.trackRate).rounded())
    }

    /// The speed at an engine frame.
    func speed(atFrame frame: Int64) -> Double {
        let t = Double(frame - self.frame)
        guard t > 0, glideFrames > 0 else { return t > 0 ? targetSpeed : speed }
        return t >= Double(glideFrames)
            ? targetSpeed : speed + (targetSpeed - speed) * t / Double(glideFrames)
    }

    /// Moves the anchor to `frame`, keeping the track's position and speed there, and glides the
    /// speed from there to `speed` over `frames` engine frames.
    mutating func respeed(at frame: Int64, to speed: Double, over frames: Int64, grid: TrackGrid) {
        position = unwrapped(atFrame: frame, grid: grid)
        self.speed = self.speed(atFrame: frame)
        self.frame = frame
        targetSpeed = speed
        glideFrames = max(frames, 0)
    }
}
