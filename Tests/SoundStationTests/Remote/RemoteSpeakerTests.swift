import Foundation
import Testing

@testable import SoundStation
@testable import SoundStationPlayer

/// The player's speaker on the real device path (the private PulseAudio server's null sink).
@Suite struct RemoteSpeakerTests {
    /// A speaker held up past its queue (the device runs dry) drops what the device would have played
    /// meanwhile, as it restarts: its render clock keeps to the wall clock, so every later sound of a remote session
    /// is heard at its time, and the session's end waits for the device to play all it rendered.
    @Test(.enabled(if: PulseServer.isAvailable))
    func aDeviceThatRanDryKeepsLaterSoundsAtTheirTime() throws {
        let engine = try AudioEngine(output: .offline(sampleRate: 48_000, channels: 2))
        defer { engine.shutdown() }
        let speaker = try RemoteSpeaker(engine: engine, output: .device(latency: .low))
        // Half a second of steady play first: the speaker learns how the device keeps time.
        #expect(speaker.waitUntilPlayed(frame: speaker.playedFrames + 24_000, timeout: .seconds(5)))
        let wallStart = ContinuousClock.now
        let renderStart = engine.time
        // The render thread held up for 300 ms: far past the 80 ms queue.
        engine.schedule(at: engine.time + .milliseconds(50)) { usleep(300_000) }
        let deadline = ContinuousClock.now + .seconds(10)
        while speaker.underruns == 0, ContinuousClock.now < deadline { usleep(5000) }
        #expect(speaker.underruns >= 1, "the device never ran dry")
        // Caught up as it restarted, before the refill: by the time the underrun is counted the gap's
        // frames are dropped (left to the drift windows, the rest of a sound the gap cut would be
        // heard late first).
        let skippedAtRestart = speaker.skippedFrames
        #expect(skippedAtRestart >= 48_000 / 10, "skipped \(skippedAtRestart) frames at the restart")
        // The render runs ahead of the wall clock by its queue (80 ms) and a period or two; after the
        // gap it comes back there (it would stay behind by the gap, for good, without the catch-up).
        func lead() -> Double {
            (engine.time - renderStart).inSeconds - (ContinuousClock.now - wallStart).inSeconds
        }
        let settle = ContinuousClock.now + .seconds(3)
        while !(lead() > 0 && lead() < 0.2), ContinuousClock.now < settle { usleep(10_000) }
        let measured = lead()
        #expect(measured > 0.0 && measured < 0.2, "render clock minus wall clock: \(measured) s")
        #expect(speaker.skippedFrames >= 48_000 / 10, "skipped \(speaker.skippedFrames) frames")
        speaker.stop()
    }
}
