import Foundation
import SoundStationTesting
import Testing

@testable import SoundStation
@testable import SoundStationPlayer

/// A change of music speed made on the server reaches the player over a remote session (as over
/// SSH): the player's render is the tone at its pitch, shortened by the speed.
@Suite struct RemoteSpeedTests {
    @Test func theSpeedReachesThePlayer() async throws {
        let assets = try TestAssets()
        try assets.addWAV(
            "tone", Signals.sine(frequency: 440, seconds: 2, amplitude: 0.5), kind: "music",
            extra: "\"loop\": false")
        let server = try await assets.system()
        let sent = server.engine.recordCommands()
        let side = try RemoteTestPlayer()
        defer { side.close() }
        try await side.open(server.catalogue)

        try server.music.setSpeed(1.25)
        try server.music.play("tone")
        _ = try server.engine.render(frames: 4_800)
        let commands = sent.withLock { $0 }
        #expect(commands.contains { if case .setMusicSpeed(1.25, .zero) = $0.0 { true } else { false } })
        try await side.send(commands, naming: [(try server.bank.id(of: "tone"), "tone")])

        let mix = try side.engine.render(frames: 3 * 48_000)
        let start = try #require(AudioAnalysis.onset(mix, threshold: 0.05))
        var end = mix.frameCount
        while end > 0, abs(mix.samples[(end - 1) * 2]) < 0.05 { end -= 1 }
        let length = Double(end - start) / 48_000
        #expect(abs(length - 1.6) < 0.02, "the player's track lasted \(length) s")
        let frequency = AudioAnalysis.zeroCrossingFrequency(mix, frames: (start + 4_800)..<(end - 4_800))
        #expect(abs(frequency - 440) < 1, "\(frequency) Hz on the player")
        #expect(side.engine.activeVoiceCount == 0)
    }
}
