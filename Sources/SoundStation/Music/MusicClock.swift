/// A free tempo clock beside the music: a game starts it on an engine, and schedules sounds and
/// its own work on its beats and bars (offline: to the frame).
///
/// ```swift
/// let clock = try MusicClock(bpm: 120, beatsPerBar: 4)
/// clock.start(on: engine)
/// let stinger = EffectStation(bank: bank, timeline: clock)
/// try stinger.play("level-up", at: .nextBar)
/// ```
public final class MusicClock: MusicTimeline {
    /// Beats in one bar.
    public let beatsPerBar: Int
    /// The name its beats carry as their ``MusicBeat/track``.
    public let name: String
    private let beatHub = Broadcast<MusicBeat>()

    /// A tempo glide from `from` to `to` over `seconds` along `easing`, `offset` seconds of which had
    /// gone at the anchor.
    private struct Glide {
        var from: Double
        var to: Double
        var seconds: Double
        var easing: Easing = .linear
        var offset = 0.0

        /// The tempo `τ` seconds into the glide.
        func tempo(at τ: Double) -> Double {
            τ >= seconds ? to : from + (to - from) * easing.progress(τ / seconds, rising: to >= from)
        }

        /// Beats (times 60) from the glide's start to `τ` seconds into it: the integral of the tempo.
        func area(to τ: Double) -> Double {
            let inside = min(max(τ, 0), seconds)
            let gliding =
                from * inside + (to - from) * seconds
                * easing.integral(to: inside / seconds, rising: to >= from)
            return gliding + to * max(0, τ - seconds)
        }
    }

    private struct State {
        var engine: AudioEngine?
        /// The tempo at the anchor.
        var bpm: Double
        /// At engine frame `frame` the clock stood at `beats` beats since its start.
        var frame: Int64 = 0
        var beats: Double = 0
        /// A tempo change under way from the anchor on.
        var glide: Glide?
        var pausedAt: Int64?
        /// Moves on at every start, pause, resume and tempo change, ending the beat events reckoned
        /// before it.
        var generation: UInt64 = 0

        var rate: Double { Double(engine?.sampleRate ?? 48_000) }

        /// The tempo `t` seconds after the anchor.
        func tempo(after t: Double) -> Double {
            guard let glide, t > 0 else { return bpm }
            return glide.tempo(at: glide.offset + t)
        }

        /// The beats since the start, `t` seconds after the anchor: the integral of the tempo.
        func beats(after t: Double) -> Double {
            guard let glide, t > 0 else { return beats + bpm * t / 60 }
            return beats + (glide.area(to: glide.offset + t) - glide.area(to: glide.offset)) / 60
        }

        /// The seconds after the anchor at which the clock reaches `target` beats.
        func seconds(toReach target: Double) -> Double {
            let ahead = target - beats
            guard let glide, ahead > 0 else { return ahead * 60 / bpm }
            let left = glide.seconds - glide.offset
            let gliding = (glide.area(to: glide.seconds) - glide.area(to: glide.offset)) / 60
            if ahead >= gliding { return left + (ahead - gliding) * 60 / glide.to }
            // The beats grow with time, so halving the interval finds the moment to well under a frame.
            var (low, high) = (0.0, left)
            for _ in 0..<64 where high - low > 1e-10 {
                let middle = (low + high) / 2
                if beats(after: middle) - beats < ahead { low = middle } else { high = middle }
            }
            return (low + high) / 2
        }

        /// Beats at an engine frame.
        func beats(at frame: Int64) -> Double { beats(after: Double(frame - self.frame) / rate) }

        /// Moves the anchor to `frame`, keeping the beats and tempo there; a glide goes on from it.
        mutating func reanchor(at frame: Int64) {
            let t = Double(frame - self.frame) / rate
            let (now, tempo) = (beats(after: t), self.tempo(after: t))
            if var glide, t > 0 {
                glide.offset += t
                self.glide = glide.offset < glide.seconds ? glide : nil
            }
            beats = now
            bpm = tempo
            self.frame = frame
        }
    }

    private let state: Locked<State>

    /// Creates a stopped clock.
    /// - Parameters:
    ///   - bpm: Beats per minute, above 0.
    ///   - beatsPerBar: Beats in one bar, at least 1.
    ///   - name: What its beat events call it.
    /// - Throws: ``MusicError/invalidTempo(_:)`` for a tempo of 0 or below, or not finite.
    public init(bpm: Double, beatsPerBar: Int = 4, name: String = "clock") throws(MusicError) {
        guard bpm > 0, bpm.isFinite else { throw .invalidTempo(bpm) }
        self.beatsPerBar = max(1, beatsPerBar)
        self.name = name
        state = Locked(State(bpm: bpm))
    }

    deinit { beatHub.finish() }

    /// A stream of the clock's beats from now on, each sent when the engine clock reaches it
    /// (offline: at its frame).
    /// - Returns: An independent stream.
    public func beats() -> AsyncStream<MusicBeat> { beatHub.stream() }

    /// Calls `handler` on each beat of the clock (on the thread that runs the engine's scheduled
    /// calls; keep it short).
    /// - Parameter handler: The closure.
    /// - Returns: A subscription whose `cancel()` stops the calls.
    @discardableResult
    public func onBeat(_ handler: @escaping @Sendable (MusicBeat) -> Void) -> EventSubscription {
        beatHub.add(handler)
    }

    /// The tempo now, in beats per minute (part way through a glide, the tempo it has reached).
    public var bpm: Double {
        state.withLock { state in
            guard let engine = state.engine else { return state.glide?.to ?? state.bpm }
            let now = state.pausedAt ?? engine.frameNow
            return state.tempo(after: Double(now - state.frame) / state.rate)
        }
    }

    /// Whether the clock has been started and is not paused.
    public var isRunning: Bool { state.withLock { $0.engine != nil && $0.pausedAt == nil } }

    /// Starts (or restarts) the clock: bar 1, beat 1 falls at `time` (a tempo glide set before the
    /// start glides from it).
    /// - Parameters:
    ///   - engine: The engine whose clock it follows.
    ///   - time: When, on the engine clock; `nil` for now.
    public func start(on engine: AudioEngine, at time: Duration? = nil) {
        let frame = time.map(engine.frame(for:)) ?? engine.frameNow
        state.withLock { state in
            state.engine = engine
            state.frame = frame
            state.beats = 0
            state.pausedAt = nil
            state.generation &+= 1
        }
        scheduleNextBeat(after: nil)
    }

    /// Holds the clock where it is.
    public func pause() {
        state.withLock { state in
            guard let engine = state.engine, state.pausedAt == nil else { return }
            state.pausedAt = engine.frameNow
            state.generation &+= 1
        }
    }

    /// Lets a paused clock run on from where it was held.
    public func resume() {
        state.withLock { state in
            guard let engine = state.engine, let pausedAt = state.pausedAt else { return }
            state.frame += engine.frameNow - pausedAt
            state.pausedAt = nil
            state.generation &+= 1
        }
        scheduleNextBeat(after: nil)
    }

    /// Changes the tempo, at once or along a tween: from its start on, the tempo follows the easing
    /// from what it is there to `bpm` (a linear tween glides linearly in beats per minute), and the
    /// beats are the tempo's integral: the beats already gone stay where they were, and points asked
    /// for later fall on the new grid.
    /// - Parameters:
    ///   - bpm: Beats per minute, above 0.
    ///   - tween: Duration, easing and start (a start on this clock's own grid is allowed); at once by
    ///     default.
    /// - Throws: ``MusicError/invalidTempo(_:)``, ``MusicError/invalidGlide(_:)`` for a negative
    ///   duration, or the grid's error for a start it cannot name.
    public func setTempo(_ bpm: Double, tween: Tween = Tween(.zero)) throws(MusicError) {
        guard bpm > 0, bpm.isFinite else { throw .invalidTempo(bpm) }
        let spec: TweenSpec
        do { spec = try TweenSpec(tween) } catch { throw MusicError(error) }
        let seconds = spec.duration.inSeconds
        let engine = state.withLock { $0.engine }
        guard let start = spec.start, let engine else {
            return change(to: bpm, over: seconds, easing: tween.easing)
        }
        engine.schedule(at: start) { [weak self] in self?.change(to: bpm, over: seconds, easing: tween.easing)
        }
    }

    private func change(to bpm: Double, over seconds: Double, easing: Easing) {
        state.withLock { state in
            if let engine = state.engine {
                state.reanchor(at: state.pausedAt ?? engine.frameNow)
            }
            if seconds > 0 {
                state.glide = Glide(from: state.bpm, to: bpm, seconds: seconds, easing: easing)
            } else {
                state.glide = nil
                state.bpm = bpm
            }
            state.generation &+= 1
        }
        scheduleNextBeat(after: nil)
    }

    /// Where the clock is in its bars.
    /// - Parameter time: A time on the engine clock; `nil` for now.
    /// - Returns: `nil` before it is started.
    public func position(at time: Duration? = nil) -> MusicPosition? {
        state.withLock { state in
            guard let engine = state.engine else { return nil }
            var frame = time.map(engine.frame(for:)) ?? engine.frameNow
            if let pausedAt = state.pausedAt { frame = min(frame, pausedAt) }
            return MusicPosition(beats: state.beats(at: frame), beatsPerBar: beatsPerBar)
        }
    }

    /// The engine-clock time of the clock's next beat, bar or multiple of bars, at or after now (a
    /// paused clock reckons as if it ran on from now).
    /// - Parameter point: The point.
    /// - Returns: The time on the engine clock; `nil` for `.now` or a clock not started.
    /// - Throws: ``MusicError/invalidBars(_:)``, or ``MusicError/noMarkers(marker:)`` for a marker.
    public func time(of point: MusicQuantize) throws(MusicError) -> Duration? {
        let step: Double
        switch point {
        case .now: return nil
        case .nextBeat: step = 1
        case .nextBar: step = Double(beatsPerBar)
        case .bars(let count):
            guard count >= 1 else { throw .invalidBars(count) }
            step = Double(count * beatsPerBar)
        case .marker(let marker): throw .noMarkers(marker: marker)
        }
        return state.withLock { state -> Duration? in
            guard let engine = state.engine else { return nil }
            let now = engine.frameNow
            var running = state
            if let pausedAt = state.pausedAt { running.frame += now - pausedAt }
            let target = ((running.beats(at: now) / step) - 1e-9).rounded(.up) * step
            let frames = running.seconds(toReach: target) * running.rate
            return .frames(running.frame + Int64(frames.rounded()), rate: engine.sampleRate)
        }
    }

    /// Runs `action` at the clock's next beat, bar or multiple of bars (see ``AudioEngine/schedule(at:_:)``).
    /// - Parameters:
    ///   - point: The point.
    ///   - action: The work, called on the mixer with no access to its state held.
    /// - Throws: As ``time(of:)``.
    public func schedule(at point: MusicQuantize, _ action: @escaping @Sendable () -> Void) throws(MusicError)
    {
        let engine = state.withLock { $0.engine }
        guard let engine else { return action() }
        guard let time = try time(of: point) else { return action() }
        engine.schedule(at: time, action)
    }

    /// Schedules the clock's next beat event: the first whole beat at or after now (`previous` nil),
    /// or the one after beat `previous`. Each schedules the next until the generation moves on.
    private func scheduleNextBeat(after previous: Int?) {
        let due = state.withLock {
            state -> (engine: AudioEngine, index: Int, frame: Int64, generation: UInt64)? in
            guard let engine = state.engine, state.pausedAt == nil else { return nil }
            let now = engine.frameNow
            let index = previous.map { $0 + 1 } ?? Int((state.beats(at: now) - 1e-9).rounded(.up))
            let frame = state.frame + Int64((state.seconds(toReach: Double(index)) * state.rate).rounded())
            return (engine, index, frame, state.generation)
        }
        guard let due else { return }
        let rate = due.engine.sampleRate
        due.engine.schedule(atFrame: due.frame) { [weak self] in
            guard let self, state.withLock({ $0.generation == due.generation }) else { return }
            let position = MusicPosition(beats: Double(due.index), beatsPerBar: beatsPerBar)
            beatHub.send(
                MusicBeat(
                    track: name, bar: position.bar, beat: position.beat, time: .frames(due.frame, rate: rate))
            )
            scheduleNextBeat(after: due.index)
        }
    }
}
