import SoundStation

/// How a remote player maps the server's clock onto its own (see ``RemotePlayer``): an offset, local
/// time minus server time, that every command is placed by, so sounds keep their spacing exactly.
///
/// Each message gives a lag (its arrival here minus its time on the server's clock). The offset is
/// the fastest lag seen before the first command, then kept. It moves (a resync) only on evidence
/// that lasts:
/// - the link has become faster than the offset by more than ``resyncMargin`` for a whole
///   ``resyncWindow`` (the clocks drift, or the messages the offset was taken from were held up):
///   towards the fastest lag of that window, by at most ``resyncStep`` a window;
/// - every message for at least ``lateWindow`` (and ``lateCount`` of them) came later than the
///   offset plus the delay (the link's delay really grew): to the fastest of those late lags.
///
/// A single late message, or a burst read at once after the player was held up, moves nothing: it
/// says the player or the link hiccupped, not that the link's delay changed, and moving the offset
/// for it would shift every later sound of the session.
struct RemoteClock: Sendable {
    /// How much faster than the offset the link must have been, throughout a window, to move it.
    static let resyncMargin = 0.015
    /// The window over which the fastest lag is watched (seconds).
    static let resyncWindow = 10.0
    /// The most one window moves the offset by towards a faster link (seconds): one mixing quantum
    /// at 48 kHz, 5.33 ms, the smallest step a command's placement moves by (the player places
    /// commands in whole quanta). Every sound placed after a move is that much earlier against one
    /// still playing (a game's music), so a larger move is heard: one move of 26.5 ms, to an anchor
    /// that a busy session start had slowed, put the last effect of a Starfall session 26.5 ms off
    /// its music. A quantum a window follows clocks that drift by up to 500 ppm.
    static let resyncStep = Double(AudioEngine.quantum) / 48_000
    /// How long messages must keep coming later than the delay before the offset follows them
    /// (seconds of arrival time, first late message to last).
    static let lateWindow = 1.0
    /// How many reads of late messages in a row that takes, at least (messages read together, as
    /// after the player was held up, count once).
    static let lateCount = 3

    /// The jitter buffer (seconds).
    let delay: Double
    /// Local time minus server time: what commands are placed by (seconds); nil before any message.
    private(set) var offset: Double?
    private var windowStart = 0.0
    private var windowMin = 0.0
    /// The arrival of the first message of the current run of late ones, the last one's, their
    /// fastest lag and how many arrivals they came at.
    private var lateSince: Double?
    private var lateLast = 0.0
    private var lateMin = 0.0
    private var lateRun = 0

    /// What one message told.
    struct Observation: Equatable {
        /// How far its lag was beyond the offset (nil while the offset is still being found).
        var beyond: Double?
        /// Whether it came later than the offset plus the delay.
        var late = false
        /// Whether the offset moved.
        var moved = false
    }

    init(delay: Double) { self.delay = delay }

    /// Takes a message's `lag` (arrival minus server time, seconds) that arrived at local time
    /// `arrival`; `placing` says whether a command was placed by the offset yet (before that, the
    /// offset follows the fastest message).
    mutating func observe(lag: Double, arrival: Double, placing: Bool) -> Observation {
        guard let offset else {
            offset = lag
            windowStart = arrival
            windowMin = lag
            return Observation()
        }
        // Until the first command is placed the offset follows the fastest message: a hello sent
        // while the server's clock had not started yet would otherwise anchor it late, and the drift
        // check would move every sound some 50 ms, ten seconds in.
        if !placing, lag < offset {
            self.offset = lag
            windowMin = lag
            return Observation()
        }
        var seen = Observation(beyond: lag - offset)
        windowMin = min(windowMin, lag)
        if lag > offset + delay {
            seen.late = true
            if let since = lateSince {
                lateMin = min(lateMin, lag)
                if arrival > lateLast { lateRun += 1 }
                lateLast = arrival
                if arrival - since >= Self.lateWindow, lateRun >= Self.lateCount {
                    move(to: lateMin, at: arrival, lag: lag)
                    seen.moved = true
                }
            } else {
                (lateSince, lateLast, lateMin, lateRun) = (arrival, arrival, lag, 1)
            }
            return seen
        }
        lateSince = nil
        if arrival - windowStart >= Self.resyncWindow {
            if windowMin < offset - Self.resyncMargin {
                self.offset = max(windowMin, offset - Self.resyncStep)
                seen.moved = true
            }
            windowStart = arrival
            windowMin = lag
        }
        return seen
    }

    /// Moves the offset and starts the windows again from this message.
    private mutating func move(to newOffset: Double, at arrival: Double, lag: Double) {
        offset = newOffset
        lateSince = nil
        windowStart = arrival
        windowMin = lag
    }
}
