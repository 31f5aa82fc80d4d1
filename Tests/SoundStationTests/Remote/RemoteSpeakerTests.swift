import Foundation
import Testing

@testable import SoundStation

/// The player's speaker on the real device path (the private PulseAudio server's null sink).
@Suite struct RemoteSpeakerTests {
    /// A speaker held up past its queue (the device runs dry) drops what the device would have played
    /// meanwhile: its render clock keeps to the wall clock, so every later sound of a remote session
    /// is heard at its time, and the session's end waits for the device to play all it rendered.
    @Test(.enabled(if: PulseServer.isAvailable))
    func aDeviceThatRanDryKeepsLaterSoundsAtTheirTime() throws {
        let engine = try AudioEngine(output: .offline(sampleRate: 48_000, channels: 2))
        defer { engine.shutdown() }
        let speaker = try RemoteSpeaker(engine: engine, output: .device(latency: .low))
        let wallStart = ContinuousClock.now
        let renderStart = engine.time
        // The render thread held up for 300 ms: far past the 80 ms queue.
        engine.schedule(at: engine.time + .milliseconds(50)) { usleep(300_000) }
        let deadline = ContinuousClock.now + .seconds(10)
        while speaker.underruns == 0, ContinuousClock.now < deadline { usleep(5000) }
        #expect(speaker.underruns >= 1, "the device never ran dry")
        // A moment of steady play after the gap.
        let target = speaker.playedFrames + 24_000
        #expect(speaker.waitUntilPlayed(frame: target, timeout: .seconds(5)))
        let wall = (ContinuousClock.now - wallStart).inSeconds
        let rendered = (engine.time - renderStart).inSeconds
        // The render runs ahead of the wall clock by its queue (80 ms) and a period or two, never
        // behind it by the gap.
        let lead = rendered - wall
        #expect(lead > 0.0 && lead < 0.2, "render clock minus wall clock: \(lead) s")
        #expect(speaker.skippedFrames >= 48_000 / 10, "skipped \(speaker.skippedFrames) frames")
        speaker.stop()
    }
}
