import Dispatch
import Glibc
import Synchronization

/// The thread a device's or quiet output's driver turns the mixer on: each round it holds the mixer
/// and runs the driver's round, then sleeps until the next thing to do (a scheduled start, a fade
/// step, a stream refill, the predicted end of a sound), or until a command comes, so an idle engine
/// costs next to nothing and a trigger is started within a few milliseconds of its call.
///
/// How a command reaches a sleeping driver depends on the output and on the game:
/// - A heard device's driver, while the game is active (a command or a load within ``activeWindow``,
///   or the engine opened within it), polls the ring: it looks for commands every ``activePollInterval``
///   (every ``pollInterval`` within ``pollingWindow`` of a command) and producers post nothing
///   (`ssrt_poll`), so a game's call never pays a `sem_post` (a futex wake, 8-25 µs on the measured
///   virtual machine) or the switch to the woken driver (which, with every core busy, can cost the
///   game thread a whole scheduler slice). A command then waits up to the interval for the driver,
///   well within a device period (~23 ms by default); a game engine's command waits for its next
///   audio callback the same way.
/// - Once the game has made no call for ``activeWindow``, the device's driver sleeps until a command
///   posts it (`ssrt_wait`): each look costs a timer wake-up, which a silent game should not pay;
///   the first command after the silence pays the post. A load wakes the driver into polling again
///   (``AudioEngine/noteCall()``), so the plays that follow a load post nothing.
/// - A quiet output's driver (silent or remote) never polls: nobody hears it, and each command wakes
///   it to be stamped with the frame it came at.
final class DriverThread: Sendable {
    /// The longest sleep: how often a device's connection is checked when nothing else is due.
    static let longestSleep: Duration = .milliseconds(250)
    /// While commands keep coming (one within ``pollingWindow``), how often a polling driver looks
    /// for the next: a trigger in a burst of play starts within this.
    static let pollInterval: Duration = .milliseconds(1)
    static let pollingWindow: Duration = .milliseconds(100)
    /// While the game is active but not firing (the last command within ``activeWindow``, more than
    /// ``pollingWindow`` ago), how often a polling driver looks for a command: a start waits half of
    /// it on average, well within a device period; each look costs the process a timer wake-up
    /// (200 a second, 30-70 µs of CPU each on the measured virtual machine), which is why the polling
    /// ends with ``activeWindow``.
    static let activePollInterval: Duration = .milliseconds(5)
    /// How long after its last command or load (or the engine's start) the game counts as active and
    /// a device's driver polls; after that it sleeps until a command wakes it.
    static let activeWindow: Duration = .seconds(1)

    /// One round on the mixer: returns the render-clock frame it ended on and the frame by which
    /// the next is due (`Int64.max`: nothing is).
    typealias Round = @Sendable (Mixer, inout [Float]) -> (frame: Int64, next: Int64)

    private final class Flag: Sendable {
        let running = Atomic<Bool>(true)
        /// Signalled when the thread has left its loop and touches the device no more.
        let exited = DispatchSemaphore(value: 0)
    }
    private let flag = Flag()
    /// The ring the thread sleeps on, which it keeps alive (not the engine, which may be freed
    /// while it sleeps).
    private let ring: CommandRing

    /// Starts the thread.
    /// - Parameters:
    ///   - engine: The engine whose mixer it turns; held weakly between rounds.
    ///   - polls: Whether to poll the ring while the game is active (a heard device).
    ///   - realTime: Whether the thread asks for the real-time class
    ///     (``PosixThread/requestRealTimeForItself(priority:)``; refused, it runs as it was: its class
    ///     shows in `/proc`, where the SSH end-to-end check reads it).
    ///   - round: The driver's round.
    init(engine: AudioEngine, polls: Bool, realTime: Bool = false, round: @escaping Round) {
        let flag = self.flag
        let ring = engine.ring
        self.ring = ring
        let sampleRate = engine.sampleRate
        let thread = PosixThread { [weak engine] in
            if realTime { _ = PosixThread.requestRealTimeForItself() }
            defer {
                OpenALDevice.releaseThreadContext()
                flag.exited.signal()
            }
            var scratch = [Float]()
            // The last command (the busy window) and the game's last call (the active window): the
            // engine's start and a load count as calls, not as commands, so a game that opens an
            // engine, loads and starts its music pays no wake-up for that start.
            var lastCommand = ContinuousClock.now - DriverThread.pollingWindow
            var lastCall = ContinuousClock.now
            var drained = ring.drainedCount
            var calls = ring.callCount
            while flag.running.load(ordering: .acquiring) {
                let sleep: Duration
                do {
                    guard let engine else { return }
                    let mixer = engine.mixer
                    let (frame, next) = mixer.run {
                        if let hook = engine.roundHook.withLock({ $0 }) { hook() }
                        return round(mixer, &scratch)
                    }
                    sleep = Self.sleep(until: next, from: frame, rate: sampleRate)
                }
                let now = ContinuousClock.now
                if ring.drainedCount != drained {
                    drained = ring.drainedCount
                    (lastCommand, lastCall) = (now, now)
                }
                if ring.callCount != calls {
                    calls = ring.callCount
                    lastCall = now
                }
                let silent = now - lastCall
                if polls, silent < DriverThread.activeWindow {
                    let busy = now - lastCommand < DriverThread.pollingWindow
                    ring.poll(
                        min(sleep, DriverThread.activeWindow - silent),
                        every: busy ? DriverThread.pollInterval : DriverThread.activePollInterval)
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
    func stop(wait: Bool) {
        guard flag.running.exchange(false, ordering: .acquiringAndReleasing) else { return }
        ring.kick()
        if wait { flag.exited.wait() }
    }

    /// How long the driver may sleep from render-clock `frame` until housekeeping is due at `next`.
    private static func sleep(until next: Int64, from frame: Int64, rate: Int) -> Duration {
        guard next != .max else { return longestSleep }
        let seconds = Double(max(next - frame, 0)) / Double(rate)
        return min(.microseconds(Int64(seconds * 1e6) + 200), longestSleep)
    }
}

/// A driver that turns its mixer on a ``DriverThread`` of its own (device and quiet output), kept
/// from ``OutputDriver/start(engine:)`` until it is stopped.
protocol ThreadedDriver: OutputDriver {
    /// The thread turning the mixer; `nil` before the start and after the stop.
    var thread: Locked<DriverThread?> { get }
}

extension ThreadedDriver {
    /// Takes the thread out (so a second stop finds none) and stops it; with `wait`, returns once it
    /// touches the mixer no more.
    func stop(wait: Bool) {
        let driver = thread.withLock { driver -> DriverThread? in
            defer { driver = nil }
            return driver
        }
        driver?.stop(wait: wait)
    }
}
