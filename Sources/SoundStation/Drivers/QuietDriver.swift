import Synchronization

/// Silent and remote output's driver: nobody hears the mix, so its thread mixes up to the wall
/// clock on a small mono loopback device (``AudioEngine/quietMixRate``) only to know where each
/// source is, throws the samples away, and sleeps until something is due; voices start, end and
/// report as on a device at a fraction of a device's cost.
final class QuietDriver: ThreadedDriver {
    let wallClock: WallClock
    /// Frames of wall time the clock skipped because a round came late (``quietWallFrame``).
    private let dropped = Atomic<Int64>(0)
    let thread = Locked<DriverThread?>(nil)
    /// Whether the thread asks for the real-time class: for remote output, whose rounds send the
    /// commands to a player that places them by their stamps and its jitter buffer, so a round held
    /// up behind busy threads of the normal class (up to 60 ms beside two busy loops on 2 cores)
    /// sends a scheduled play late. Silent output is heard by nobody and stays in the normal class.
    let realTime: Bool

    init(wallClock: WallClock, realTime: Bool) {
        self.wallClock = wallClock
        self.realTime = realTime
    }

    var isHeard: Bool { false }
    var rendersOnCaller: Bool { false }
    var isDevice: Bool { false }

    /// Whether a round has mixed: until then the clock is the wall clock's.
    private let mixed = Atomic<Bool>(false)

    /// The most one round mixes (a quarter of a second): a later round skips the rest, and the clock
    /// never reads further ahead of what was mixed.
    var catchUp: Int64 { Int64(wallClock.sampleRate / 4) }

    /// The most the first round mixes (ten seconds). Its lateness is the engine's own opening (the
    /// device, the mixer and the remote link are made before the thread starts), not a stopped
    /// process: skipped, it would start the clock behind the one the messages sent before it were
    /// stamped by. Counted run 70: an opening of about 440 ms on a loaded machine skipped 190 ms, and
    /// a remote player, whose clock was anchored on the session's first messages, heard every
    /// message after it 190 ms late and moved its whole session by that.
    var firstCatchUp: Int64 { Int64(wallClock.sampleRate * 10) }

    /// The wall clock's frames since opening, less what late rounds skipped.
    var quietWallFrame: Int64 { wallClock.frame - dropped.load(ordering: .relaxed) }

    /// Between rounds the clock reads the wall clock, never more than one round's catching up ahead
    /// of what was mixed (before the first round, as far as it will mix).
    func clockFrame(rendered: Int64) -> Int64 {
        let most = mixed.load(ordering: .acquiring) ? catchUp : firstCatchUp
        return max(rendered, min(quietWallFrame, rendered + most))
    }

    /// The frames a round mixes when the mixer has mixed up to `rendered`: up to the wall clock,
    /// skipping (for good) what lies beyond one round's catching up.
    func roundFrames(rendered: Int64) -> Int {
        let most = mixed.exchange(true, ordering: .acquiringAndReleasing) ? catchUp : firstCatchUp
        let behind = quietWallFrame - rendered
        let frames = max(min(behind, most), 0)
        if behind > frames { dropped.add(behind - frames, ordering: .relaxed) }
        return Int(frames)
    }

    func start(engine: AudioEngine) {
        // Nobody hears a quiet engine, so its commands need no polling to start within a period:
        // each wakes the driver, which stamps it with the frame it arrived at.
        let driver = DriverThread(engine: engine, polls: false, realTime: realTime) { [self] mixer, scratch in
            // Mix up to the wall clock and throw it away; a round after the first that is more than a
            // quarter of a second late mixes a quarter of a second and the clock skips the rest (a
            // stopped process does not come back to minutes of catching up): ``roundFrames``.
            let frames = roundFrames(rendered: mixer.engine.renderedFrame.load(ordering: .relaxed))
            let channels = mixer.channels
            if scratch.count < max(frames, 1) * channels {
                scratch = [Float](repeating: 0, count: max(frames, 1) * channels)
            }
            // The commands that woke the driver came now, by the wall clock, not where the last round
            // ended (up to ``DriverThread/longestSleep`` ago): mixed up to now first, they are carried
            // out (and stamped, for a remote player) at the frame they came. Zero frames still
            // carries them out.
            let held = frames > 0 && mixer.ring.hasPending
            scratch.withUnsafeMutableBufferPointer {
                mixer.mixChunks(into: $0, frames: frames, catchingUp: held)
            }
            return (mixer.state.frame, mixer.state.nextWakeFrame)
        }
        thread.withLock { $0 = driver }
    }
}
