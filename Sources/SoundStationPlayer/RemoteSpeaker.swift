import COpenAL
import Dispatch
import Glibc
import SoundStation
import Synchronization

/// Plays an offline engine's mix on a real device: a thread renders the engine ahead in short
/// pieces and queues them on one streaming source, as fast as the device takes them.
///
/// This is how the player's side keeps a remote game's sounds to the sample: the engine starts each
/// sound at its exact frame of the render clock (``AudioEngine/render(frames:)``), and the device
/// plays the rendered stream without a gap, so two sounds are as far apart when heard as their
/// commands said, whatever the device's periods and however late a thread wakes. The cost is the
/// queue's length (``aheadFrames``) of extra latency, well inside the jitter buffer.
public final class RemoteSpeaker: Sendable {
    /// Frames rendered per piece (10 ms at 48 kHz).
    public static let pieceFrames = 480
    /// Pieces kept queued on the device.
    public static let queuedPieces = 8
    /// How far the render clock runs ahead of what is heard, in frames (plus the device's own latency).
    public static var aheadFrames: Int { pieceFrames * queuedPieces }

    /// The engine whose mix is played (offline output).
    public let engine: AudioEngine
    /// The device's name, or `nil` when nothing is heard (the render follows the wall clock).
    public let deviceName: String?
    private let running = Atomic<Bool>(true)
    private let exited = DispatchSemaphore(value: 0)
    /// Times the device ran dry before the next piece was queued.
    public var underruns: Int { underrunCount.load(ordering: .acquiring) }
    private let underrunCount = Atomic<Int>(0)
    /// Frames of the render the device has played (taken from the queue), skipped ones included.
    public var playedFrames: Int { playedCount.load(ordering: .relaxed) }
    private let playedCount = Atomic<Int>(0)
    /// Frames rendered and not played, to keep the sounds after an underrun at their time.
    public var skippedFrames: Int { skippedCount.load(ordering: .relaxed) }
    private let skippedCount = Atomic<Int>(0)
    /// Times the rendering thread found itself held up longer than the device's queue lasts (the
    /// process stopped, or the thread kept from a core); the queue is dropped only when the device
    /// was held up with it (``DriftWatch/wasHeldUp(position:at:)``).
    public var heldUp: Int { heldUpCount.load(ordering: .relaxed) }
    private let heldUpCount = Atomic<Int>(0)
    /// The real-time priority (SCHED_RR) the rendering thread asks for: above every thread of the
    /// normal class, below PulseAudio's sinks and main thread (5), as OpenAL Soft's own mixer asks
    /// for 1. In the normal class, beside two busy loops, it waited up to 224 ms for a core, and the
    /// device ran dry after 80 (Docs/Testing.md, "The SSH player under two busy loops").
    public static let realTimePriority: Int32 = PosixThread.soundPriority
    /// Why the rendering thread runs in the normal class (its request for ``realTimePriority`` was
    /// refused: no CAP_SYS_NICE, `ulimit -r` 0), or `nil` when it runs real-time; read after `init`.
    public var notRealTime: String? { refusal.withLock { $0 } }
    private let refusal = Locked<String?>(nil)

    /// Opens the device and starts rendering.
    /// - Parameters:
    ///   - engine: An engine with ``AudioOutput/offline(sampleRate:channels:)`` output, 1 or 2 channels.
    ///   - output: ``AudioOutput/device(name:latency:)`` to hear it, ``AudioOutput/silent`` to only
    ///     keep time.
    /// - Throws: ``AudioEngineError/noPlaybackDevice(name:)`` when the device cannot be opened,
    ///   ``AudioEngineError/notOffline(operation:)`` for an engine that is not offline.
    public init(engine: AudioEngine, output: AudioOutput) throws(AudioEngineError) {
        guard engine.isOffline else { throw .notOffline(operation: "RemoteSpeaker") }
        self.engine = engine
        var device: OpenALDevice?
        var source: OpenALSource?
        if case .device(let name, _) = output {
            // Opened real-time, so OpenAL Soft's mixer thread and libpulse's mainloop thread, which
            // start here, run in the class too: in the normal class beside two busy loops they
            // waited up to 104 and 294 ms for a core, and the device ran dry all the same.
            let (opened, _) = try PosixThread.withRealTime(priority: Self.realTimePriority) {
                () throws(AudioEngineError) -> OpenALDevice in
                try OpenALDevice(playback: name, latency: .normal)
            }
            device = opened
            source = try OpenALSource(device: opened)
            deviceName = opened.name
        } else {
            deviceName = nil
        }
        // The thread takes the device and source out of this box and lets go of them before it
        // signals that it has ended, so they are freed on it, never later (the thread object's own
        // release can come at exit, racing OpenAL's teardown).
        let held = Locked<(device: OpenALDevice, source: OpenALSource)?>(nil)
        if let device, let source { held.withLock { $0 = (device, source) } }
        let consuming = DispatchSemaphore(value: 0)
        let thread = PosixThread { [self] in
            let refused = PosixThread.requestRealTime(priority: Self.realTimePriority)
            refusal.withLock { $0 = refused }
            defer {
                OpenALDevice.releaseThreadContext()
                exited.signal()
            }
            if let (device, source) = held.withLock({ box in
                defer { box = nil }
                return box
            }) {
                pump(device: device, source: source, consuming: consuming)
            } else {
                consuming.signal()
                keepTime()
            }
        }
        thread.name = "SoundStation remote speaker"
        thread.qualityOfService = .userInteractive
        thread.start()
        // A sound server may take a moment to start pulling a new stream; the clock should run with
        // the device before the first message is timed by it.
        _ = consuming.wait(timeout: .now() + .seconds(2))
    }

    /// Stops rendering and closes the device, waiting for the thread.
    public func stop() {
        guard running.exchange(false, ordering: .acquiringAndReleasing) else { return }
        exited.wait()
    }

    private func piece() -> PCMAudio? {
        defer { noteRender() }
        return try? engine.render(frames: Self.pieceFrames)
    }

    /// The wall clock's origin for ``arrivalTime``.
    private let origin = ContinuousClock.now
    private let arrivals = Locked(ArrivalClock())
    /// Seconds of the wall clock since ``origin``.
    private var wallSeconds: Double { (ContinuousClock.now - origin).inSeconds }

    /// Feeds the render clock's reading after a render to ``arrivalTime``'s envelope.
    private func noteRender() {
        let render = engine.time.inSeconds
        let wall = wallSeconds
        arrivals.withLock { $0.rendered(render, at: wall) }
    }

    /// The time, on the render clock's scale, a message read now is taken to arrive at
    /// (``ArrivalClock``: the render clock without its steps); `nil` before the first render. Any
    /// thread.
    public var arrivalTime: Double? {
        let wall = wallSeconds
        return arrivals.withLock { $0.arrival(at: wall) }
    }

    /// Keeps the device's queue full.
    private func pump(device: OpenALDevice, source: OpenALSource, consuming: DispatchSemaphore) {
        var signalled = false
        var consumed = 0
        defer { if !signalled { consuming.signal() } }
        /// Counts frames the device took off the queue (played, or dropped with the source stopped).
        func took(_ frames: Int) {
            consumed += frames / Self.pieceFrames
            playedCount.add(frames, ordering: .relaxed)
        }
        var queue = SpeakerQueue(source: source, pieceFrames: Self.pieceFrames)
        var first: [OpenALBuffer] = []
        for _ in 0..<Self.queuedPieces {
            guard let audio = piece(), let buffer = try? OpenALBuffer(device: device, audio: audio) else {
                return
            }
            first.append(buffer)
        }
        _ = queue.append(first)
        try? source.play()
        var started = true
        // When the source is heard falling behind the wall clock (what a listener hears by), the
        // frames it fell behind by are rendered and dropped. `lag` is wall-clock frames minus the
        // source's position; it saws by a device period between the device's mixes, so the smallest
        // over a window longer than a period is compared with the smallest seen in steady play.
        var clock = DriftWatch(rate: Double(engine.sampleRate), period: device.refresh)
        let timed = device.withContext { alIsExtensionPresent("AL_SOFT_source_latency") != 0 }
        var lastPoll = ContinuousClock.now
        let heldUpLimit = Duration.seconds(Double(Self.aheadFrames) / Double(engine.sampleRate))
        while running.load(ordering: .acquiring) {
            let polled = ContinuousClock.now
            if signalled, polled - lastPoll > heldUpLimit, source.state == .playing {
                heldUpCount.add(1, ordering: .relaxed)
                // This thread was held up longer than the queue lasts. When the device was held up
                // with it (the whole process stopped), what is still queued was due during the
                // hold-up and would be heard late after it: it is dropped, and the source restarts
                // as one that ran dry. When the device played on, the queue is on time.
                let heard =
                    timed
                    ? Self.heardPosition(
                        of: source, on: device, played: playedFrames, rate: Double(engine.sampleRate))
                    : nil
                if clock.wasHeldUp(position: heard, at: (polled - clock.start).inSeconds) {
                    let dropped = queue.stopAndEmpty()
                    took(dropped)
                    skippedCount.add(dropped, ordering: .relaxed)
                }
            }
            lastPoll = polled
            // A source that stopped has processed all its queue, so a dry restart below knows
            // every frame the device took.
            let (dry, played) = queue.reclaim()
            took(played)
            // Steady once two whole queues went through: the clock then runs with the device.
            if consumed >= 2 * Self.queuedPieces, !signalled {
                signalled = true
                consuming.signal()
            }
            // Dropped before the refill, so the pieces queued next are the ones due now.
            if signalled, timed,
                let heard = Self.heardPosition(
                    of: source, on: device, played: playedFrames, rate: Double(engine.sampleRate))
            {
                let now = (ContinuousClock.now - clock.start).inSeconds
                // A source that ran dry restarts with the next piece after what the device holds, so
                // how far behind it is is known at once; the rest of a sound it cut is not played late.
                let late =
                    dry ? clock.restart(position: heard, at: now) : clock.observe(position: heard, at: now)
                if late > 0 { catchUp(behind: late) }
            } else if dry {
                clock.interrupt()
            }
            var refilled: [OpenALBuffer] = []
            var unfilled: [OpenALBuffer] = []
            for buffer in queue.free {
                // A buffer whose piece could not be rendered, or that OpenAL refused, stays free for
                // the next (a refused piece is not heard: it counts as skipped).
                guard let audio = piece() else {
                    unfilled.append(buffer)
                    continue
                }
                guard (try? buffer.fill(audio)) != nil else {
                    skippedCount.add(Self.pieceFrames, ordering: .relaxed)
                    unfilled.append(buffer)
                    continue
                }
                refilled.append(buffer)
            }
            queue.free = unfilled
            // The source may run dry while the pieces are rendered (a sound's first decode on this
            // thread): the pieces before them then played, and they restart it.
            let (ranDry, beforeThem) = queue.append(refilled)
            took(beforeThem)
            if ranDry, !dry { clock.interrupt() }
            // A refill held up past the queue's length (a render callback that blocked, say) made
            // the catch-up above stale: restarted now, the queue would be heard late by the hold-up.
            // The source stays stopped; the next poll finds it dry and restarts it with what is due.
            if dry || ranDry, ContinuousClock.now - polled <= heldUpLimit {
                // The queue ran dry (the thread was held up): start again with what is queued.
                // Counted after the catch-up above, so one who sees it sees the frames skipped.
                if started { underrunCount.add(1, ordering: .releasing) }
                try? source.play()
                started = true
            }
            usleep(2000)
        }
        source.stop()
    }

    /// After the device ran dry: renders and drops the frames the device played silence for, so every
    /// later sound is heard at its time (a gap never delays the rest of the session). What sounded
    /// during the gap is lost; what follows keeps its spacing.
    private func catchUp(behind frames: Int) {
        _ = try? engine.render(frames: frames)
        noteRender()
        playedCount.add(frames, ordering: .relaxed)
        skippedCount.add(frames, ordering: .relaxed)
    }

    /// The frame of the render being heard now: the source's position (the pieces already unqueued
    /// plus its offset in the queue) less the device's latency, read together
    /// (AL_SAMPLE_OFFSET_LATENCY_SOFT); nil when the read fails.
    private static func heardPosition(
        of source: OpenALSource, on device: OpenALDevice, played: Int, rate: Double
    ) -> Int? {
        var values: [ALint64SOFT] = [0, 0]
        let id = source.id
        let failed = device.withContext { () -> Bool in
            alGetSourcei64vSOFT(id, AL_SAMPLE_OFFSET_LATENCY_SOFT, &values)
            return alGetError() != AL_NO_ERROR
        }
        guard !failed else { return nil }
        // The offset is 32.32 fixed point, in the render's frames; the latency in nanoseconds.
        let offset = Double(values[0]) / 4_294_967_296
        return Int((Double(played) + offset - Double(values[1]) * rate / 1e9).rounded())
    }

    /// Waits until the device has played the render up to engine frame `frame` (what was queued when
    /// the render clock passed it), or until `timeout`; returns whether it has.
    public func waitUntilPlayed(frame: Int, timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while true {
            // The render clock runs `aheadFrames` ahead of what the device has taken.
            if deviceName == nil || playedFrames >= frame { return true }
            if ContinuousClock.now >= deadline || !running.load(ordering: .acquiring) { return false }
            usleep(5000)
        }
    }

    /// Renders in step with the wall clock, for a player without a device.
    private func keepTime() {
        let start = ContinuousClock.now
        var rendered = 0
        let rate = Double(engine.sampleRate)
        while running.load(ordering: .acquiring) {
            let due = Int((ContinuousClock.now - start).inSeconds * rate) + Self.aheadFrames
            while rendered + Self.pieceFrames <= due {
                _ = piece()
                rendered += Self.pieceFrames
            }
            usleep(5000)
        }
    }
}

/// Watches how far a device's playing falls behind the wall clock (see ``RemoteSpeaker``).
///
/// Times are seconds from ``start`` and positions frames of the render, passed in, so the decisions
/// can be driven by a test.
struct DriftWatch {
    /// Frames behind that are let be at a dry restart (the wall clock and the position are read a
    /// poll apart).
    static let slack = 96
    /// Frames behind that are let be while the source plays: 10 ms. The windows' readings wander by
    /// about 2 ms on a sound server that is not held up (PulseAudio's latency reports move with its
    /// own mixing steps), so a drop at 2 ms put sounds 2 ms early in a steady session (gaps of
    /// 497.9 ms for 500 heard on the sink); a device's real drift from the wall clock grows by far less
    /// than 10 ms a minute, and a stall is caught at its restart.
    static let steadySlack = 480
    /// How long after a dry restart the device's readings are not trusted to lower the floor.
    static let settleTime = 0.5
    let rate: Double
    /// The window the smallest lag is taken over: a device period and a half, plus two polls.
    let window: Double
    let start = ContinuousClock.now
    /// The smallest lag seen in steady play.
    var floor: Int?
    /// How far behind the last window was, when it was past the slack.
    var previous: Int?
    /// Until when, after a dry restart, the floor is not lowered (seconds).
    var settling = 0.0
    var recent: [(at: Double, lag: Int)] = []

    init(rate: Double, period refresh: Int) {
        self.rate = rate
        let period = refresh > 0 ? 1 / Double(refresh) : 0.025
        window = period * 1.5 + 0.004
    }

    /// Takes the source's position (frames played since it started, skipped ones included) at `now`
    /// while it plays; returns the frames it has fallen behind by, to drop (0 when it has not).
    mutating func observe(position: Int, at now: Double) -> Int {
        // A poll that came a whole window late (this thread held up) starts the window again.
        if let last = recent.last, now - last.at > window { recent.removeAll() }
        recent.append((now, Int(now * rate) - position))
        guard let first = recent.first, now - first.at >= window else { return 0 }
        let window = self.window
        recent.removeAll { now - $0.at > window }
        let lag = recent.map(\.lag).min()!
        guard let floor else {
            self.floor = lag
            return 0
        }
        if lag < floor, now >= settling { self.floor = lag }
        recent.removeAll()
        // Behind in two windows in a row (one window's reads can all come late on a busy machine):
        // the smaller of the two is dropped; the position then moves on, and the windows start again.
        let behind = lag - floor
        guard behind > Self.steadySlack else {
            previous = nil
            return 0
        }
        guard let earlier = previous else {
            previous = behind
            return 0
        }
        previous = nil
        return min(behind, earlier)
    }

    /// Takes the position of a source that ran dry (what it played, less what the device still
    /// holds) at `now`, just before it plays again; returns the frames it is behind by, to drop before
    /// the refill (0 when it is not, or before steady play was seen).
    ///
    /// A stopped source's reading does not saw with the device's mixes as a playing one's does (the
    /// device's latency falls as the wall clock rises until the next mix), so one reading is enough:
    /// the device was silent for the gap, and the frames it should have played meanwhile are dropped
    /// at once rather than heard late. The windows start again when it plays.
    ///
    /// For ``settleTime`` after it the floor is not lowered: a sound server starting a stream again
    /// reports less latency than it then has (PulseAudio fills the stream's buffer before it plays
    /// it), and a floor lowered by that would put every later sound early by as much.
    mutating func restart(position: Int, at now: Double) -> Int {
        interrupt()
        settling = now + Self.settleTime
        guard let floor else { return 0 }
        let behind = Int(now * rate) - position - floor
        return behind > Self.slack ? behind : 0
    }

    /// Whether a device whose source still plays after this thread was held up longer than its
    /// queue lasts was held up with it: its position (`nil`: not read) is behind the wall clock by
    /// more than the slack, so the queued pieces were due during the hold-up (the whole process
    /// stopped). A device that played on (only the thread was kept from a core, or its render was
    /// slow) is on time: dropping its queue would lose that much sound and put every later sound as
    /// much early. Without a reading, or before steady play, it is taken as held up.
    func wasHeldUp(position: Int?, at now: Double) -> Bool {
        guard let position, let floor else { return true }
        return Int(now * rate) - position - floor > Self.slack
    }

    /// The source stopped (ran dry): the next window starts when it plays again.
    mutating func interrupt() {
        recent.removeAll()
        previous = nil
    }
}
