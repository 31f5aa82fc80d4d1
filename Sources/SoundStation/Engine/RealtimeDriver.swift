import Foundation
import Synchronization

/// The thread that keeps a device or silent engine moving: it starts scheduled sounds and reclaims
/// finished voices every few milliseconds, and for silent output it mixes in real time.
final class RealtimeDriver: Sendable {
    /// How long the thread sleeps between rounds: the jitter of a scheduled start on a device.
    static let period: Duration = .milliseconds(5)
    private final class Flag: Sendable {
        let running = Atomic<Bool>(true)
        /// Signalled when the thread has left its loop and touches the device no more.
        let exited = DispatchSemaphore(value: 0)
    }
    private let flag = Flag()

    init(engine: AudioEngine) {
        let flag = self.flag
        let thread = Thread { [weak engine] in
            defer {
                OpenALDevice.releaseThreadContext()
                flag.exited.signal()
            }
            var scratch = [Float]()
            var lastTick = ContinuousClock.now
            while flag.running.load(ordering: .acquiring) {
                guard let engine else { return }
                let now = ContinuousClock.now
                engine.driverRound(since: lastTick, now: now, scratch: &scratch)
                lastTick = now
                Thread.sleep(forTimeInterval: 0.005)
            }
        }
        thread.name = "SoundStation driver"
        thread.qualityOfService = .userInteractive
        thread.start()
    }

    /// Asks the thread to stop; with `wait`, returns once it has (never call that from the thread).
    func stop(wait: Bool = false) {
        guard flag.running.exchange(false, ordering: .acquiringAndReleasing) else { return }
        if wait { flag.exited.wait() }
    }
}

extension AudioEngine {
    /// One round of the realtime driver.
    func driverRound(
        since last: ContinuousClock.Instant, now: ContinuousClock.Instant, scratch: inout [Float]
    ) {
        if case .silent = output {
            // Mix what wall time says has passed, in bounded pieces, and throw it away.
            let elapsed = now - last
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            let frames = min(Int(seconds * Double(sampleRate)), sampleRate / 4)
            guard frames > 0 else { return }
            if scratch.count < frames * channels { scratch = [Float](repeating: 0, count: frames * channels) }
            scratch.withUnsafeMutableBufferPointer { mixChunks(into: $0, frames: frames) }
        } else {
            reopenIfLost()
            runDueCalls()
            var events: [SoundEvent] = []
            state.withLock { housekeep(&$0, events: &events) }
            hub.send(events)
        }
    }
}
