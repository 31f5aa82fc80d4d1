import Foundation
import Synchronization
import Testing

@testable import SoundStation
@testable import SoundStationPlayer

/// The player's speaker on the real device path (the private PulseAudio server's null sink).
@Suite struct RemoteSpeakerTests {
    /// The speaker's counters as a render callback that held it up left them, read on the speaker's
    /// own thread (nothing else counts an underrun or drops frames while the callback runs).
    final class HoldUpEnd: Sendable {
        /// Underruns counted before the hold-up's (-1 until the callback has run).
        let underruns = Atomic<Int>(-1)
        /// Frames skipped before the hold-up.
        let skipped = Atomic<Int>(0)
    }

    /// A speaker held up past its queue (the device runs dry) drops what the device would have played
    /// meanwhile, as it restarts: its render clock keeps to the wall clock, so every later sound of a remote session
    /// is heard at its time, and the session's end waits for the device to play all it rendered.
    @Test(.enabled(if: PulseServer.isAvailable))
    func aDeviceThatRanDryKeepsLaterSoundsAtTheirTime() throws {
        let engine = try AudioEngine(output: .offline(sampleRate: 48_000, channels: 2))
        defer { engine.shutdown() }
        let speaker = try RemoteSpeaker(engine: engine, output: .device(latency: .low))
        defer { speaker.stop() }
        // Half a second of steady play first: the speaker learns how the device keeps time.
        #expect(speaker.waitUntilPlayed(frame: speaker.playedFrames + 24_000, timeout: .seconds(5)))
        let wallStart = ContinuousClock.now
        let renderStart = engine.time
        func lead() -> Double {
            (engine.time - renderStart).inSeconds - (ContinuousClock.now - wallStart).inSeconds
        }
        // The render clock's lead over the wall clock saws by a device period (25-30 ms here): it
        // jumps when the device takes pieces and they are rendered again, and falls until the next
        // time. Its top, the largest over a second of the device's play, is compared: one reading
        // against another compares two points of the saw.
        func top() -> Double? {
            let played = speaker.playedFrames + 48_000
            let deadline = ContinuousClock.now + .seconds(5)
            var top = -Double.infinity
            while speaker.playedFrames < played {
                guard ContinuousClock.now < deadline else { return nil }
                top = max(top, lead())
                usleep(1000)
            }
            return top
        }
        let before = try #require(top(), "the device stopped playing")
        // The render thread held up for 300 ms: far past the 80 ms queue. The device may also have
        // run dry on its own on a busy machine; the underrun waited for is the one after this.
        let held = HoldUpEnd()
        engine.schedule(at: engine.time + .milliseconds(50)) {
            usleep(300_000)
            held.skipped.store(speaker.skippedFrames, ordering: .relaxed)
            held.underruns.store(speaker.underruns, ordering: .releasing)
        }
        func restarted() -> Bool {
            let counted = held.underruns.load(ordering: .acquiring)
            return counted >= 0 && speaker.underruns > counted
        }
        let deadline = ContinuousClock.now + .seconds(10)
        while !restarted(), ContinuousClock.now < deadline { usleep(2000) }
        #expect(restarted(), "the device never ran dry after the hold-up")
        // Caught up as it restarted, before the refill: by the time the underrun is counted the gap's
        // frames are dropped (left to the drift windows, the rest of a sound the gap cut would be
        // heard late first).
        let skippedAtRestart = speaker.skippedFrames - held.skipped.load(ordering: .relaxed)
        #expect(skippedAtRestart >= 48_000 / 10, "skipped \(skippedAtRestart) frames at the restart")
        // After the gap the saw's top is back where it was (without the catch-up it would stay
        // ~220 ms lower, the gap less the queue), give or take what the speaker lets a playing source
        // be behind before it drops frames, and a piece (the render clock moves by whole pieces, so
        // its top is known to one); and never ahead of it by a queue (frames dropped twice).
        let after = try #require(top(), "the device stopped playing after the gap")
        let rate = Double(engine.sampleRate)
        let slack = Double(DriftWatch.steadySlack + RemoteSpeaker.pieceFrames) / rate
        let queue = Double(RemoteSpeaker.aheadFrames) / rate
        #expect(after > before - slack && after < before + queue, "lead's top: \(before) s, then \(after) s")
    }
}
