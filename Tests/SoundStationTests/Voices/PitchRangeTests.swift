import Foundation
import SoundStationTesting
import Synchronization
import Testing

@testable import SoundStation

/// One range per number from every entry: a pitch the check allows plays at that speed, measured on
/// an offline render, whichever way the voice was started or changed (`ss_play` and
/// `ss_voice_set_pitch` are measured in Tests/CAPI/abi_test.c); a number past its range is refused,
/// by a throw naming it, or, from the trigger port that cannot throw, by a `refused` event.
@Suite struct PitchRangeTests {
    /// A 100 Hz tone of 2 s at 48 kHz: at pitch p it is heard at 100 p Hz for 2 / p s.
    static let tone = Signals.sine(frequency: 100, seconds: 2)

    /// The speed `mix` plays the tone at, over its first 0.1 s: the amplitude at 100 `pitch` Hz
    /// against the amplitude where the old cap of 8 put it.
    static func expectHeard(at pitch: Float, in mix: PCMAudio, _ entry: String) {
        let frames = 0..<4_800
        let wanted = AudioAnalysis.amplitude(of: 100 * Double(pitch), in: mix, frames: frames)
        let capped = AudioAnalysis.amplitude(of: 800, in: mix, frames: frames)
        #expect(wanted > 0.2, "\(entry) at pitch \(pitch): \(wanted) at \(100 * pitch) Hz")
        if pitch != 8 { #expect(capped < 0.02, "\(entry) at pitch \(pitch): \(capped) at 800 Hz") }
    }

    @Test(arguments: [Float(0.5), 8, 12, 16])
    func aBufferPlaysAtThePitchAsked(pitch: Float) throws {
        let engine = try AudioEngine(output: .offline(sampleRate: 48_000, channels: 2))
        let buffer = try engine.makeBuffer(Self.tone, name: "tone")
        try engine.play(buffer, options: PlayOptions(pitch: pitch))
        let mix = try engine.render(frames: 96_000)
        let seconds = min(1, 2 / Double(pitch) - 0.01)
        let frequency = AudioAnalysis.zeroCrossingFrequency(mix, frames: 240..<Int(seconds * 48_000))
        // Counted in whole periods: within two of them over the window.
        #expect(abs(frequency - 100 * Double(pitch)) <= 2 / seconds, "pitch \(pitch): \(frequency) Hz")
    }

    @Test func everyEntryPlaysPitch12At12() async throws {
        let assets = try TestAssets()
        try assets.addWAV("tone", Self.tone)
        let system = try await assets.system()
        let engine = system.engine
        let id = try system.bank.id(of: "tone")
        try system.effects.play(id, pitch: 12)
        Self.expectHeard(at: 12, in: try engine.render(frames: 4_800), "EffectStation.play")
        _ = try engine.render(frames: 96_000)
        _ = try #require(engine.triggerPort.play(id, pitch: 12))
        Self.expectHeard(at: 12, in: try engine.render(frames: 4_800), "TriggerPort.play")
        _ = try engine.render(frames: 96_000)
        let buffer = try engine.makeBuffer(Self.tone, name: "buffer")
        let voice = try #require(try engine.play(buffer, options: PlayOptions(loop: true)))
        _ = try engine.render(frames: 480)
        try engine.setPitch(12, for: voice)
        _ = try engine.render(frames: 512)
        Self.expectHeard(at: 12, in: try engine.render(frames: 4_800), "setPitch")
    }

    @Test func aNumberPastItsRangeIsRefusedFromEveryEntry() throws {
        let engine = try AudioEngine(output: .offline(sampleRate: 48_000, channels: 2))
        let buffer = try engine.makeBuffer(Self.tone, name: "tone")
        for (options, name) in [
            (PlayOptions(pitch: 16.5), "pitch"), (PlayOptions(pitch: 0.05), "pitch"),
            (PlayOptions(volume: 17), "volume"), (PlayOptions(pan: 1.5), "pan"),
        ] {
            #expect {
                try engine.play(buffer, options: options)
            } throws: { error in
                guard case AudioEngineError.invalidArgument(name, _, _) = error else { return false }
                return true
            }
        }
        let voice = try #require(try engine.play(buffer))
        #expect(throws: AudioEngineError.self) { try engine.setPitch(17, for: voice) }
        // The trigger port cannot throw: the start is refused with an event, never clamped.
        let refused = Mutex<[VoiceHandle]>([])
        engine.onEvent { event in
            if case .refused(let handle, _, _) = event { refused.withLock { $0.append(handle) } }
        }
        engine.stop(voice)
        let port = engine.triggerPort
        let fast = try #require(port.play(buffer.id, pitch: 17))
        let slow = try #require(port.play(buffer.id, pitch: 0.01))
        let loud = try #require(port.play(buffer.id, volume: 20))
        let mix = try engine.render(frames: 4_800)
        #expect(refused.withLock { $0 } == [fast, slow, loud])
        #expect(mix.samples.allSatisfy { $0 == 0 }, "nothing was played at a clamped number")
    }

    @Test func theSwiftAndCRangesAreOne() {
        #expect(PlayOptions.pitchRange == 0.0625...16)
        #expect(PlayOptions.volumeRange == 0...16)
        #expect(PlayOptions.clamped(pitch: 12) == 12)
        #expect(PlayOptions.clamped(pitch: 40) == 16)
        #expect(PlayOptions(pitch: 12).clamped().pitch == 12)
    }
}
