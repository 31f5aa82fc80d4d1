import SoundStation
import Synchronization

/// What a session's fed streams did on the player's side (``RemotePlayer/Report/streams``).
public struct RemoteStreamCounts: Sendable, Equatable {
    /// Streams the game opened.
    public var opened = 0
    /// Packets received.
    public var packets = 0
    /// Bytes of Opus received.
    public var bytes = 0
    /// Packets that never came, concealed.
    public var concealed = 0
    /// Packets that could not be decoded.
    public var undecodable = 0
    /// Frames that did not fit in a stream's buffer (the player's render fell behind).
    public var overflowFrames = 0
    /// Times a stream's voice ran dry after it began.
    public var underruns = 0
    /// The longest a packet took beyond its stream's quickest, in seconds: how long the link held
    /// one back. A stream runs dry when that is more than the player's delay and the game's lead.
    public var jitter = 0.0
}

/// The player's side of a game's fed streams: each stream's Opus packets decoded into a local
/// ``PCMFeed`` whose voice starts at the local time of the game's play (the commands' clock mapping
/// and delay), with its options (bus, volume, pan), and answers the game's later commands for that
/// voice like any other.
///
/// The feed's queue is the jitter buffer: packets are decoded and queued as they arrive, and the voice
/// begins at its play's time plus the delay, so it holds about the delay's worth of frames while the
/// link jitters. A packet later than that leaves the voice dry for a moment, heard as silence and
/// counted as an underrun (``RemoteStreamCounts/underruns``). A packet that never came (its sequence number is
/// skipped: dropped on the way for a cap) is concealed by libopus. A stream the game closed plays
/// what was received, then its voice ends; neither the stop the game's close sends nor the stop-all of
/// the game's engine shutting down cuts it short, however far a late link put it behind.
final class RemoteStreamPlayer: Sendable {
    private struct Stream {
        var decoder: OpusPacketDecoder?
        let channels: Int
        var feed: PCMFeed?
        /// Decoded before the voice's play arrived.
        var early: [Float] = []
        var nextSequence: UInt32 = 0
        var ended = false
        /// The least a packet took from its frame on the game's clock to its arrival (seconds, with
        /// the clocks' offset).
        var quickest = Double.infinity
    }

    private struct State: @unchecked Sendable {
        var streams: [Int32: Stream] = [:]
        var counts = RemoteStreamCounts()
        /// Underruns of streams let go of.
        var pastUnderruns = 0
    }

    private let engine: AudioEngine
    private let budget: RemoteBudget
    private let state = Mutex(State())
    /// Called with a resource refused for the budget.
    private let overBudget: @Sendable (RemoteBudget.Resource) -> Void

    init(
        engine: AudioEngine, budget: RemoteBudget,
        overBudget: @escaping @Sendable (RemoteBudget.Resource) -> Void
    ) {
        self.engine = engine
        self.budget = budget
        self.overBudget = overBudget
    }

    /// The counts so far, underruns of the live streams included.
    var counts: RemoteStreamCounts {
        state.withLock { state in
            var counts = state.counts
            counts.underruns =
                state.pastUnderruns + state.streams.values.reduce(0) { $0 + ($1.feed?.underruns ?? 0) }
            return counts
        }
    }

    /// The game opened a stream.
    func open(_ id: SoundID, channels: Int) {
        let refused = state.withLock { state -> Bool in
            letGoOfEnded(&state)
            if let old = state.streams.removeValue(forKey: id.rawValue) { retire(old, &state) }
            guard state.streams.values.count(where: { !$0.ended }) < budget.streams,
                let decoder = try? OpusPacketDecoder(channels: channels)
            else { return true }
            state.streams[id.rawValue] = Stream(decoder: decoder, channels: channels)
            state.counts.opened += 1
            return false
        }
        if refused { overBudget(.streams) }
    }

    /// Starts the voice of stream `id` at `time`, when `id` is a stream's; `nil` otherwise.
    /// - Returns: The local voice, or `nil` (not a stream, or the engine could not take the play).
    func play(_ id: SoundID, options: PlayOptions, at time: Duration) -> VoiceHandle?? {
        state.withLock { state -> VoiceHandle?? in
            guard var stream = state.streams[id.rawValue] else { return .none }
            guard stream.feed == nil,
                let feed = try? engine.openFeed(
                    channels: stream.channels, sampleRate: StreamCodec.decodedRate,
                    options: options.clamped(), queueFrames: budget.streamFrames, name: "stream",
                    at: time)
            else { return .some(nil) }
            let taken = feed.write(stream.early)
            state.counts.overflowFrames += stream.early.count / stream.channels - taken
            stream.early = []
            if stream.ended { feed.drain() }
            stream.feed = feed
            state.streams[id.rawValue] = stream
            return .some(feed.voice)
        }
    }

    /// A packet of stream `id`.
    /// - Parameters:
    ///   - lag: Its arrival on the player's clock less its frame on the game's (seconds).
    func receive(_ id: SoundID, sequence: UInt32, lag: Double, data: [UInt8]) {
        state.withLock { state in
            guard var stream = state.streams[id.rawValue], let decoder = stream.decoder else { return }
            state.counts.packets += 1
            state.counts.bytes += data.count
            stream.quickest = min(stream.quickest, lag)
            state.counts.jitter = max(state.counts.jitter, lag - stream.quickest)
            // An old or repeated packet: nothing to add.
            guard sequence &- stream.nextSequence < 1 << 31 else { return }
            // Packets that never came: a few concealed (a longer gap is silence, as on the game's side).
            let missing = Int(sequence &- stream.nextSequence)
            for _ in 0..<min(missing, 5) {
                if let samples = try? decoder.decode(nil) { queue(samples, in: &stream, &state.counts) }
            }
            state.counts.concealed += missing
            stream.nextSequence = sequence &+ 1
            do throws(WireError) {
                queue(try decoder.decode(data), in: &stream, &state.counts)
            } catch {
                state.counts.undecodable += 1
            }
            state.streams[id.rawValue] = stream
        }
    }

    /// The game closed stream `id` after `packets` packets.
    func end(_ id: SoundID, packets: UInt32) {
        state.withLock { state in
            guard var stream = state.streams[id.rawValue], !stream.ended else { return }
            let missing = Int(packets &- stream.nextSequence)
            if missing > 0, missing < 1 << 20 { state.counts.concealed += missing }
            stream.ended = true
            stream.decoder = nil
            stream.feed?.drain()
            state.streams[id.rawValue] = stream
        }
    }

    /// The game closed its engine: every stream plays what it received, then ends.
    func endAll() {
        state.withLock { state in
            for (id, var stream) in state.streams where !stream.ended {
                stream.ended = true
                stream.decoder = nil
                stream.feed?.drain()
                state.streams[id] = stream
            }
        }
    }

    /// A new session: every stream of the one before stops.
    func reset() {
        state.withLock { state in
            for stream in state.streams.values { retire(stream, &state) }
            state.streams.removeAll()
        }
    }

    private func queue(_ samples: [Float], in stream: inout Stream, _ counts: inout RemoteStreamCounts) {
        let frames = samples.count / stream.channels
        if let feed = stream.feed {
            counts.overflowFrames += frames - feed.write(samples)
        } else {
            let room = budget.streamFrames * stream.channels - stream.early.count
            stream.early += samples.prefix(max(room, 0))
            counts.overflowFrames += max(samples.count - max(room, 0), 0) / stream.channels
        }
    }

    /// Lets go of streams that ended and were played.
    private func letGoOfEnded(_ state: inout State) {
        for (id, stream) in state.streams where stream.ended && (stream.feed?.queuedFrames ?? 0) == 0 {
            state.pastUnderruns += stream.feed?.underruns ?? 0
            state.streams[id] = nil
        }
    }

    private func retire(_ stream: Stream, _ state: inout State) {
        state.pastUnderruns += stream.feed?.underruns ?? 0
        stream.feed?.close()
    }
}
