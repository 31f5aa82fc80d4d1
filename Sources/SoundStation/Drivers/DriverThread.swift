import Dispatch
import Glibc
import Synchronization

/// The thread a device's or quiet output's driver turns the mixer on: each round it holds the mixer
/// and runs the driver's round, then sleeps until the next thing to do (a scheduled start, a fade
/// step, a stream refill, the predicted end of a sound), or until a command wakes it through the
/// ring, so an idle engine costs next to nothing and a trigger is started within microseconds of
/// its call.
final class DriverThread: Sendable {
    /// The longest sleep: how often a device's connection is checked when nothing else is due.
    static let longestSleep: Duration = .milliseconds(250)
    /// While commands keep coming (one within ``pollingWindow``), a polling driver checks the ring
    /// this often instead of sleeping until a command wakes it: a trigger then costs no `sem_post`
    /// and no switch to the woken driver (which, with every core busy, could cost the game thread a
    /// whole scheduler slice), and a start waits at most this long, well within a device period.
    static let pollInterval: Duration = .milliseconds(1)
    static let pollingWindow: Duration = .milliseconds(100)

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
    ///   - polls: Whether to poll the ring while commands keep coming (a heard device).
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
            var lastCommand = ContinuousClock.now - DriverThread.pollingWindow
            var drained = ring.drainedCount
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
                if ring.drainedCount != drained {
                    drained = ring.drainedCount
                    lastCommand = ContinuousClock.now
                }
                if polls, ContinuousClock.now - lastCommand < DriverThread.pollingWindow {
                    ring.poll(min(sleep, DriverThread.pollInterval))
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
