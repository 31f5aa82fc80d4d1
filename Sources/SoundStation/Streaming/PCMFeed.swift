import Synchronization

/// A stream of PCM a game makes as it plays (an emulator's sound chip, a tracker, a synth, voice
/// chat), heard through one voice of the engine.
///
/// ``write(_:)`` copies frames into a bounded lock-free queue and returns at once, from any thread:
/// what does not fit is refused and counted (``refusedFrames``), never waited for. The mixing side
/// takes frames from the queue as soon as they come, in blocks of at most 256 frames queued on the
/// voice's OpenAL source (as many as the device may mix at once: its whole buffer, three periods,
/// 70 ms at ``OutputLatency/normal``), so frames written just ahead of the device are heard within
/// its latency, and a device that mixes late and then several periods at once finds the game's whole
/// lead there. When the queue runs dry the voice plays silence until frames come again,
/// and ``underruns`` counts that. A stream at another rate than the engine's is resampled by OpenAL
/// Soft, as every sound at another rate is; offline the frames render sample-exactly.
///
/// ```swift
/// let feed = try engine.openFeed(channels: 1, sampleRate: 48_000)
/// feed.write(samples)          // from the emulator's thread
/// feed.close()
/// ```
public final class PCMFeed: Sendable {
    /// The name events use for its voice.
    public let name: String
    /// Samples per frame: 1 or 2.
    public let channels: Int
    /// Frames per second of what is written.
    public let sampleRate: Int
    /// The most frames the queue holds.
    public let capacity: Int
    /// The voice it plays through (stop, volume, pan and pause it like any voice); `nil` when the
    /// engine had fallen too far behind to take the play.
    public let voice: VoiceHandle?

    let ring: FeedRing
    /// Stops the voice (holding the engine weakly: a feed outliving its engine stops nothing).
    private let stopVoice: @Sendable () -> Void

    init(
        name: String, channels: Int, sampleRate: Int, capacity: Int, ring: FeedRing, voice: VoiceHandle?,
        engine: AudioEngine
    ) {
        (self.name, self.channels, self.sampleRate, self.capacity) = (name, channels, sampleRate, capacity)
        (self.ring, self.voice) = (ring, voice)
        stopVoice = { [weak engine] in
            if let voice { engine?.stop(voice) }
        }
    }

    /// Copies whole interleaved frames into the queue; never waits.
    /// - Parameter samples: `frames * channels` samples in -1...1 (beyond is clipped, NaN is 0).
    /// - Returns: The frames taken: all of them, fewer when the queue is full (the rest are refused
    ///   and counted), 0 after ``close()`` or while another thread writes to the same feed.
    @discardableResult
    public func write(_ samples: UnsafeBufferPointer<Float>) -> Int {
        ring.write(samples)
    }

    /// ``write(_:)`` from an array.
    /// - Parameter samples: Interleaved samples, a whole number of frames.
    /// - Returns: The frames taken.
    @discardableResult
    public func write(_ samples: [Float]) -> Int {
        samples.withUnsafeBufferPointer { ring.write($0) }
    }

    /// Frames written and not yet heard: those in the queue, and those the voice has taken but not
    /// played yet (as of the mixing side's last round, which comes every block or sooner).
    public var queuedFrames: Int { ring.queuedFrames }

    /// Times the voice ran out of frames after it had begun: each is a gap the game was late for.
    public var underruns: Int { ring.underruns.load(ordering: .relaxed) }

    /// Frames ``write(_:)`` refused because the queue was full (or another thread was writing).
    public var refusedFrames: Int { ring.refused.load(ordering: .relaxed) }

    /// Whether ``close()`` was called.
    public var isClosed: Bool { ring.closed.load(ordering: .acquiring) }

    /// Stops the voice at once and refuses every later write. Idempotent; never waits.
    ///
    /// Over SSH the player is sent the stream's end first and plays what it received before its
    /// voice ends (the stop that follows does not cut it short there).
    public func close() {
        guard !ring.closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        ring.remote?.finish()
        stopVoice()
    }

    /// Refuses every later write and lets the voice play what is queued, then end (a player's
    /// stream whose game closed it). Never waits.
    package func drain() {
        ring.draining.store(true, ordering: .releasing)
        ring.wakeDriver()
    }
}

/// The queue between a ``PCMFeed``'s writers and its voice: a single-reader ring of samples whose
/// writers take turns by one atomic flag (a writer that finds it taken is refused, not kept waiting).
/// It is the voice's ``PCMBlocks`` too, read by the mixing side under the engine's lock.
///
/// `@unchecked Sendable`: the samples between `read` and `written` belong to the reader, the rest to
/// the writer holding `writing`; the atomics order the hand-over.
final class FeedRing: PCMBlocks, @unchecked Sendable {
    let channels: Int
    let sampleRate: Int
    /// Samples the ring holds (capacity frames times channels).
    private let size: Int
    private let storage: UnsafeMutablePointer<Float>
    /// Samples ever written and ever read; their difference is what is queued.
    private let written = Atomic<Int>(0)
    private let read = Atomic<Int>(0)
    private let writing = Atomic<Bool>(false)
    let closed = Atomic<Bool>(false)
    /// Set by ``PCMFeed/drain()``: no more writes, and the voice ends once the ring is played.
    let draining = Atomic<Bool>(false)
    /// Over SSH, the encoder that sends what is written to the player.
    let remote: RemoteStreamSender?
    let refused = Atomic<Int>(0)
    let underruns = Atomic<Int>(0)
    /// Frames the voice has heard, published by the mixing side each round.
    private let heard = Atomic<Int>(0)
    /// Whether a block has been handed to the voice (a dry queue before that is no underrun).
    private var begun = false
    /// Whether the voice has run dry and no frame has come since. Mixing side.
    private var dry = false
    /// Gaps counted as the game's whose restart has not come yet. Mixing side.
    private var pendingRestarts = 0
    /// Wakes the mixing side (a device's driver) when frames come to an empty ring.
    private let wake: @Sendable () -> Void

    init(
        channels: Int, sampleRate: Int, capacityFrames: Int, remote: RemoteStreamSender? = nil,
        wake: @escaping @Sendable () -> Void
    ) {
        self.wake = wake
        self.remote = remote
        self.channels = channels
        self.sampleRate = sampleRate
        size = capacityFrames * channels
        storage = .allocate(capacity: size)
        storage.initialize(repeating: 0, count: size)
    }

    deinit { storage.deallocate() }

    func write(_ samples: UnsafeBufferPointer<Float>) -> Int {
        let frames = samples.count / channels
        guard frames > 0 else { return 0 }
        guard !closed.load(ordering: .acquiring), !draining.load(ordering: .acquiring),
            !writing.exchange(true, ordering: .acquiring)
        else {
            refused.add(frames, ordering: .relaxed)
            return 0
        }
        defer { writing.store(false, ordering: .releasing) }
        let head = written.load(ordering: .relaxed)
        let free = size - (head - read.load(ordering: .acquiring))
        let taken = min(frames, free / channels)
        if taken < frames { refused.add(frames - taken, ordering: .relaxed) }
        let count = taken * channels
        var index = 0
        while index < count {
            let at = (head + index) % size
            let run = min(count - index, size - at)
            for k in 0..<run {
                let sample = samples[index + k]
                storage[at + k] = sample.isNaN ? 0 : min(max(sample, -1), 1)
            }
            index += run
        }
        let wasEmpty = head == read.load(ordering: .relaxed)
        written.store(head + count, ordering: .releasing)
        if let remote, count > 0 {
            // What the ring took, clipped, in the order written (one writer at a time).
            var index = 0
            while index < count {
                let at = (head + index) % size
                let run = min(count - index, size - at)
                remote.append(UnsafeBufferPointer(start: storage + at, count: run))
                index += run
            }
        }
        // The voice may be waiting for its first frames or have run dry: its driver need not wait
        // for its next round.
        if wasEmpty, taken > 0 { wake() }
        return taken
    }

    /// Wakes the mixing side now (a drain must be seen to end the voice).
    func wakeDriver() { wake() }

    /// When the mixing side must look at this voice again, given that its source holds no block
    /// predicted still to be heard: soon (in `soon` frames) while the ring holds frames or the source
    /// holds frames not yet heard, else not until a write wakes it (``write(_:)`` does on an empty
    /// ring) or `idle` frames pass. A dry stream then costs no rounds. Frames on the source count:
    /// the prediction follows the render clock, which a device mixing late (a sound server held up)
    /// runs ahead of, and the game writes by ``queuedFrames``, which only a round brings up to date;
    /// asleep with them unheard, the round would come after the device had taken them all.
    /// - Parameters:
    ///   - now: The engine frame now.
    ///   - soon: The round's usual wait, half a block.
    ///   - idle: The longest sleep of a dry stream.
    /// - Returns: The frame to wake at.
    func nextLook(now: Int64, soon: Int64, idle: Int64) -> Int64 {
        let unheard = read.load(ordering: .relaxed) / channels > heard.load(ordering: .relaxed)
        return ringFrames > 0 || unheard || draining.load(ordering: .acquiring) ? now + soon : now + idle
    }

    /// Frames in the ring.
    var ringFrames: Int { (written.load(ordering: .acquiring) - read.load(ordering: .acquiring)) / channels }

    /// Frames written and not yet heard.
    var queuedFrames: Int {
        max(written.load(ordering: .acquiring) / channels - heard.load(ordering: .relaxed), 0)
    }

    /// Whether the first frames have come, so the voice may begin. Mixing side.
    var isReadyToBegin: Bool {
        ringFrames > 0 || closed.load(ordering: .acquiring) || draining.load(ordering: .acquiring)
    }

    /// Records the sound frame the voice has heard up to, and how often its source ran dry and was
    /// started again since the last round. Mixing side.
    ///
    /// Two ways to run dry, one count for each gap: the voice heard every frame handed to it and the
    /// ring is empty (the game was late: counted at once, and the restart that ends it is not counted
    /// again), or the source ran out while the ring held frames (the mixing side was late: counted at
    /// the restart).
    func noteHeard(_ frame: Int, restarted: Int) {
        heard.store(frame, ordering: .relaxed)
        let absorbed = min(restarted, pendingRestarts)
        pendingRestarts -= absorbed
        if restarted > absorbed { underruns.add(restarted - absorbed, ordering: .relaxed) }
        let handed = read.load(ordering: .relaxed) / channels
        if begun, !dry, frame >= handed, ringFrames == 0, !closed.load(ordering: .relaxed),
            !draining.load(ordering: .relaxed)
        {
            dry = true
            pendingRestarts += 1
            underruns.add(1, ordering: .relaxed)
        }
    }

    // MARK: PCMBlocks (mixing side)

    var isFinished: Bool {
        closed.load(ordering: .acquiring) || (draining.load(ordering: .acquiring) && ringFrames == 0)
    }

    func nextBlock(maxFrames: Int) -> (start: Int, samples: [Float])? {
        var samples = [Float](repeating: 0, count: maxFrames * channels)
        let got = samples.withUnsafeMutableBufferPointer {
            nextBlock(into: $0.baseAddress!, maxFrames: maxFrames)
        }
        guard let got else { return nil }
        return (got.start, Array(samples[..<(got.frames * channels)]))
    }

    func nextBlock(into destination: UnsafeMutablePointer<Float>, maxFrames: Int) -> (
        start: Int, frames: Int
    )? {
        guard !closed.load(ordering: .acquiring) else { return nil }
        let tail = read.load(ordering: .relaxed)
        let available = written.load(ordering: .acquiring) - tail
        let frames = min(available / channels, maxFrames)
        guard frames > 0 else { return nil }
        let count = frames * channels
        var index = 0
        while index < count {
            let at = (tail + index) % size
            let run = min(count - index, size - at)
            (destination + index).update(from: storage + at, count: run)
            index += run
        }
        read.store(tail + count, ordering: .releasing)
        begun = true
        dry = false
        return (tail / channels, frames)
    }
}
