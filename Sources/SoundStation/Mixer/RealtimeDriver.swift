import Dispatch
import Glibc
import Synchronization

/// The thread that is the mixing side of a device or silent engine: it carries out triggers from
/// the command ring, starts scheduled sounds, refills streams, moves fades and reclaims finished
/// voices, and for silent output mixes in real time.
///
/// It sleeps until the next thing to do (a scheduled start, a fade step, a stream refill, the
/// predicted end of a sound), or until a trigger posts the ring's semaphore, so an idle engine costs
/// next to nothing and a trigger is started within microseconds of its call.
final class RealtimeDriver: Sendable {
    /// The longest sleep: how often a device's connection is checked when nothing else is due.
    static let longestSleep: Duration = .milliseconds(250)
    /// While triggers keep coming (one within ``pollingWindow``), the driver checks the ring this
    /// often instead of sleeping until a trigger wakes it: a trigger then costs no `sem_post` and no
    /// switch to the woken driver (which, with every core busy, could cost the game thread a whole
    /// scheduler slice), and a start waits at most this long, well within a device period.
    static let pollInterval: Duration = .milliseconds(1)
    static let pollingWindow: Duration = .milliseconds(100)

    private final class Flag: Sendable {
        let running = Atomic<Bool>(true)
        /// Signalled when the thread has left its loop and touches the device no more.
        let exited = DispatchSemaphore(value: 0)
    }
    private let flag = Flag()

    init(engine: AudioEngine) {
        let flag = self.flag
        // The thread keeps the ring (not the engine) alive, so it can sleep on it while the engine
        // is freed.
        let ring = engine.ring
        let thread = PosixThread { [weak engine] in
            defer {
                OpenALDevice.releaseThreadContext()
                flag.exited.signal()
            }
            engine?.mixerThread.store(pthread_self(), ordering: .relaxed)
            // Nobody hears a quiet engine, so its triggers need no polling to start within a
            // period: each wakes the driver, which stamps it with the frame it arrived at.
            let polls = engine.map { !$0.output.mixesQuietly } ?? false
            var scratch = [Float]()
            var lastCommand = ContinuousClock.now - RealtimeDriver.pollingWindow
            var drained = ring.drainedCount
            while flag.running.load(ordering: .acquiring) {
                let sleep: Duration
                do {
                    guard let engine else { return }
                    sleep = engine.driverRound(scratch: &scratch)
                }
                if ring.drainedCount != drained {
                    drained = ring.drainedCount
                    lastCommand = ContinuousClock.now
                }
                if polls, ContinuousClock.now - lastCommand < RealtimeDriver.pollingWindow {
                    ring.poll(min(sleep, RealtimeDriver.pollInterval))
                } else {
                    ring.wait(sleep)
                }
            }
        }
        thread.name = "SoundStation driver"
        thread.qualityOfService = .userInteractive
        thread.start()
    }

    /// Asks the thread to stop and wakes it; with `wait`, returns once it has (never call that from
    /// the thread).
    func stop(wait: Bool = false, ring: CommandRing) {
        guard flag.running.exchange(false, ordering: .acquiringAndReleasing) else { return }
        ring.wake()
        if wait { flag.exited.wait() }
    }
}

extension AudioEngine {
    /// One round of the realtime driver.
    /// - Returns: How long the driver may sleep before the next round (a trigger wakes it sooner).
    func driverRound(scratch: inout [Float]) -> Duration {
        if let hook = roundHook.withLock({ $0 }) { state.withLock { _ in hook() } }
        if output.mixesQuietly {
            // Mix up to the wall clock and throw it away; a round more than a quarter of a second
            // late mixes a quarter of a second and the clock skips the rest (a stopped process does
            // not come back to minutes of catching up).
            let behind = quietWallFrame - renderedFrame.load(ordering: .relaxed)
            let frames = Int(max(min(behind, quietCatchUp), 0))
            if behind > Int64(frames) { quietDropped.add(behind - Int64(frames), ordering: .relaxed) }
            if scratch.count < max(frames, 1) * channels {
                scratch = [Float](repeating: 0, count: max(frames, 1) * channels)
            }
            // Zero frames still carries out the ring's commands.
            scratch.withUnsafeMutableBufferPointer { mixChunks(into: $0, frames: frames) }
            let (frame, next) = state.withLock { ($0.frame, $0.nextWakeFrame) }
            return sleep(until: next, from: frame)
        }
        reopenIfLost()
        // The round's OpenAL calls select the context once; the thread keeps no hold on the device
        // between rounds (a reopened device replaces it).
        let (frame, next) = device.withCurrentContext { () -> (Int64, Int64) in
            drainCommands()
            runDueCalls()
            drainCommands()
            return withState { state, events in
                housekeep(&state, events: &events)
                publish(state)
                return (state.frame, state.nextWakeFrame)
            }
        }
        return sleep(until: next, from: frame)
    }

    /// How long the driver may sleep from render-clock `frame` until housekeeping is due at `next`.
    private func sleep(until next: Int64, from frame: Int64) -> Duration {
        guard next != .max else { return RealtimeDriver.longestSleep }
        let seconds = Double(max(next - frame, 0)) / Double(sampleRate)
        return min(.microseconds(Int64(seconds * 1e6) + 200), RealtimeDriver.longestSleep)
    }
}
