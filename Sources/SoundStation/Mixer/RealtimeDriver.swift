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
    /// Silent output mixes in pieces this long.
    static let silentPeriod: Duration = .milliseconds(5)
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
            var scratch = [Float]()
            var lastTick = ContinuousClock.now
            var lastCommand = ContinuousClock.now - RealtimeDriver.pollingWindow
            var drained = ring.drainedCount
            while flag.running.load(ordering: .acquiring) {
                let sleep: Duration
                do {
                    guard let engine else { return }
                    let now = ContinuousClock.now
                    sleep = engine.driverRound(since: lastTick, now: now, scratch: &scratch)
                    lastTick = now
                }
                if ring.drainedCount != drained {
                    drained = ring.drainedCount
                    lastCommand = ContinuousClock.now
                }
                if ContinuousClock.now - lastCommand < RealtimeDriver.pollingWindow {
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
    func driverRound(
        since last: ContinuousClock.Instant, now: ContinuousClock.Instant, scratch: inout [Float]
    ) -> Duration {
        if let hook = roundHook.withLock({ $0 }) { state.withLock { _ in hook() } }
        if output == .silent || output == .remote {
            // Mix what wall time says has passed, in bounded pieces, and throw it away.
            let elapsed = now - last
            let seconds = elapsed.inSeconds
            let frames = min(Int(seconds * Double(sampleRate)), sampleRate / 4)
            if frames > 0 {
                if scratch.count < frames * channels {
                    scratch = [Float](repeating: 0, count: frames * channels)
                }
                scratch.withUnsafeMutableBufferPointer { mixChunks(into: $0, frames: frames) }
            }
            return RealtimeDriver.silentPeriod
        }
        reopenIfLost()
        drainCommands()
        runDueCalls()
        drainCommands()
        let (frame, next) = withState { state, events in
            housekeep(&state, events: &events)
            publish(state)
            return (state.frame, state.nextWakeFrame)
        }
        guard next != .max else { return RealtimeDriver.longestSleep }
        let seconds = Double(max(next - frame, 0)) / Double(sampleRate)
        return min(.microseconds(Int64(seconds * 1e6) + 200), RealtimeDriver.longestSleep)
    }
}
