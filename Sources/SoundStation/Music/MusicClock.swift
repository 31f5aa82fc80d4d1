import Synchronization

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

    private struct State {
        var engine: AudioEngine?
        var bpm: Double
        /// At engine frame `frame` the clock stood at `beats` beats since its start.
        var frame: Int64 = 0
        var beats: Double = 0
        var pausedAt: Int64?
    }

    private let state: Mutex<State>

    /// Creates a stopped clock.
    /// - Parameters:
    ///   - bpm: Beats per minute, above 0.
    ///   - beatsPerBar: Beats in one bar, at least 1.
    /// - Throws: ``MusicError/invalidTempo(_:)`` for a tempo of 0 or below, or not finite.
    public init(bpm: Double, beatsPerBar: Int = 4) throws(MusicError) {
        guard bpm > 0, bpm.isFinite else { throw .invalidTempo(bpm) }
        self.beatsPerBar = max(1, beatsPerBar)
        state = Mutex(State(bpm: bpm))
    }

    /// The tempo now, in beats per minute.
    public var bpm: Double { state.withLock { $0.bpm } }

    /// Whether the clock has been started and is not paused.
    public var isRunning: Bool { state.withLock { $0.engine != nil && $0.pausedAt == nil } }

    /// Starts (or restarts) the clock: bar 1, beat 1 falls at `time`.
    /// - Parameters:
    ///   - engine: The engine whose clock it follows.
    ///   - time: Seconds on the engine clock; `nil` for now.
    public func start(on engine: AudioEngine, at time: Double? = nil) {
        let frame = engine.frame(forSeconds: time ?? engine.time)
        state.withLock { state in
            state.engine = engine
            state.frame = frame
            state.beats = 0
            state.pausedAt = nil
        }
    }

    /// Holds the clock where it is.
    public func pause() {
        state.withLock { state in
            guard let engine = state.engine, state.pausedAt == nil else { return }
            state.pausedAt = engine.frame(forSeconds: engine.time)
        }
    }

    /// Lets a paused clock run on from where it was held.
    public func resume() {
        state.withLock { state in
            guard let engine = state.engine, let pausedAt = state.pausedAt else { return }
            state.frame += engine.frame(forSeconds: engine.time) - pausedAt
            state.pausedAt = nil
        }
    }

    /// Changes the tempo from now on; the beats already gone stay where they were.
    /// - Parameter bpm: Beats per minute, above 0.
    /// - Throws: ``MusicError/invalidTempo(_:)``.
    public func setTempo(_ bpm: Double) throws(MusicError) {
        guard bpm > 0, bpm.isFinite else { throw .invalidTempo(bpm) }
        state.withLock { state in
            if let engine = state.engine {
                let now = state.pausedAt ?? engine.frame(forSeconds: engine.time)
                state.beats = Self.beats(at: now, state)
                state.frame = now
            }
            state.bpm = bpm
        }
    }

    /// Where the clock is in its bars.
    /// - Parameter time: Seconds on the engine clock; `nil` for now.
    /// - Returns: `nil` before it is started.
    public func position(at time: Double? = nil) -> MusicPosition? {
        state.withLock { state in
            guard let engine = state.engine else { return nil }
            var frame = engine.frame(forSeconds: time ?? engine.time)
            if let pausedAt = state.pausedAt { frame = min(frame, pausedAt) }
            return MusicPosition(beats: Self.beats(at: frame, state), beatsPerBar: beatsPerBar)
        }
    }

    /// The engine-clock time of the clock's next beat, bar or multiple of bars, at or after now (a
    /// paused clock reckons as if it ran on from now).
    /// - Parameter point: The point.
    /// - Returns: Seconds on the engine clock; `nil` for `.now` or a clock not started.
    /// - Throws: ``MusicError/invalidBars(_:)``, or ``MusicError/noMarkers(marker:)`` for a marker.
    public func time(of point: MusicQuantize) throws(MusicError) -> Double? {
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
        return state.withLock { state -> Double? in
            guard let engine = state.engine else { return nil }
            let now = engine.frame(forSeconds: engine.time)
            var running = state
            if let pausedAt = state.pausedAt { running.frame += now - pausedAt }
            let target = ((Self.beats(at: now, running) / step) - 1e-9).rounded(.up) * step
            let frames = (target - running.beats) * 60 / running.bpm * Double(engine.sampleRate)
            return Double(running.frame + Int64(frames.rounded())) / Double(engine.sampleRate)
        }
    }

    /// Runs `action` at the clock's next beat, bar or multiple of bars (see ``AudioEngine/schedule(at:_:)``).
    /// - Parameters:
    ///   - point: The point.
    ///   - action: The work, called outside the engine's lock.
    /// - Throws: As ``time(of:)``.
    public func schedule(at point: MusicQuantize, _ action: @escaping @Sendable () -> Void) throws(MusicError)
    {
        let engine = state.withLock { $0.engine }
        guard let engine else { return action() }
        guard let time = try time(of: point) else { return action() }
        engine.schedule(at: time, action)
    }

    private static func beats(at frame: Int64, _ state: State) -> Double {
        guard let engine = state.engine else { return 0 }
        return state.beats + Double(frame - state.frame) / Double(engine.sampleRate) * state.bpm / 60
    }
}
