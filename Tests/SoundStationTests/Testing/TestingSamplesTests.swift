import Foundation
import SoundStation
import SoundStationTesting
import Testing

/// The testing samples of the README and the DocC article, run on the committed assets (their paths
/// made absolute, so the tests do not depend on the working directory).
@Suite struct TestingSamplesTests {
    static let assets = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Assets").path
    /// The golden renders (recorded by `GoldenAudio` on its first run, committed).
    static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Golden").path

    @Test func theCoinStartsAtHalfASecond() async throws {
        let engine = try AudioEngine(output: .offline())
        let coin = try engine.makeBuffer(
            try AudioDecoder.decode(fileAt: Self.assets + "/Effects/coin.wav"), name: "coin")
        let events = engine.events()
        _ = try engine.play(coin, at: .seconds(0.5))
        let mix = try engine.render(frames: 48_000)
        #expect(AudioAnalysis.onset(mix) == 24_000)
        #expect(AudioAnalysis.decibels(AudioAnalysis.peak(mix)) > -12)
        _ = try await events.nextEvent(within: .seconds(5)) {
            if case .started(_, "coin", _) = $0 { true } else { false }
        }
    }

    @Test func theMenuClickIsHeardOnItsFrame() async throws {
        let engine = try AudioEngine(output: .offline(sampleRate: 48_000, channels: 2))
        let sound = SoundSystem(engine: engine, catalogue: try Catalogue(assetsRoot: Self.assets))
        _ = try await sound.bank.preload()
        let events = engine.events()
        try sound.effects.play("click", at: .seconds(0.25))
        let mix = try engine.render(frames: 24_000)
        #expect(AudioAnalysis.onset(mix) == 12_000)
        let click = try AudioDecoder.decode(fileAt: Self.assets + "/Effects/click.wav")
        let heard = AudioAnalysis.rms(mix, frames: 12_000..<12_000 + click.frameCount)
        // A mono sound at the centre comes out 4.5 dB down on each side.
        #expect(abs(AudioAnalysis.decibels(heard / AudioAnalysis.rms(click)) - -4.5) < 1)
        // The whole render against the one recorded when the scene sounded right.
        try GoldenAudio(path: Self.golden + "/menu-click.wav").check(mix)
        _ = try await events.nextEvent(within: .seconds(5)) {
            if case .started(_, "click", _) = $0 { true } else { false }
        }
    }
}
