import SoundStationTesting
import Testing

@testable import SoundStation

/// A reverb nothing sends to rests once its tail has died away (OpenAL Soft would otherwise run it on
/// every frame: issue 23), and wakes, fresh, for the next sound on its bus.
@Suite struct ReverbRestTests {
    /// A short reverb, so it rests within a second: the generic preset with a 0.5 s decay.
    static var shortReverb: Reverb {
        var reverb = ReverbPreset.generic.parameters
        reverb.decayTime = 0.5
        return reverb
    }

    static func resting(_ engine: AudioEngine) -> Set<Bus> {
        engine.mixer.run { engine.mixer.state.space.restingReverbs }
    }

    @Test func aReverbRestsAfterItsTailAndWakesFreshForTheNextSound() throws {
        let engine = try AudioEngine(output: .offline(sampleRate: 48_000, channels: 2))
        let reverb = Self.shortReverb
        try engine.setReverb(reverb, for: .effects)
        let burst = try engine.makeBuffer(Signals.sine(frequency: 500, seconds: 0.02), name: "burst")
        let rest = Int(reverb.restFrames(rate: 48_000))
        try engine.play(burst)
        let first = try engine.render(frames: rest - 1_024)
        #expect(Self.resting(engine).isEmpty, "still ringing")
        // The tail's last stretch before the rest is far below the sound: nothing audible is cut.
        let peak = AudioAnalysis.rms(first, frames: 0..<960)
        let late = AudioAnalysis.rms(first, frames: (rest - 5_824)..<(rest - 1_024))
        #expect(peak > 0.01)
        #expect(AudioAnalysis.decibels(late / peak) < -70, "the tail before resting: \(late) against \(peak)")
        let after = try engine.render(frames: 4_096)
        #expect(Self.resting(engine) == [.effects])
        #expect(AudioAnalysis.peak(after, frames: 2_048..<4_096) == 0)
        // The next sound wakes it at its first frame and gets the same reverb the first one got.
        try engine.play(burst)
        let second = try engine.render(frames: 28_800)
        #expect(Self.resting(engine).isEmpty)
        let tail = 4_800..<28_800
        let firstTail = AudioAnalysis.rms(first, frames: tail)
        let secondTail = AudioAnalysis.rms(second, frames: tail)
        #expect(firstTail > 0.0002)
        #expect(
            abs(AudioAnalysis.decibels(secondTail / firstTail)) < 0.1, "\(secondTail) against \(firstTail)")
    }

    @Test func aLoopingVoiceKeepsItAwakeAndAPauseLetsItRest() throws {
        let engine = try AudioEngine(output: .offline(sampleRate: 48_000, channels: 2))
        let reverb = Self.shortReverb
        try engine.setReverb(reverb, for: .effects)
        let tone = try engine.makeBuffer(Signals.sine(frequency: 300, seconds: 0.25), name: "tone")
        _ = try #require(try engine.play(tone, options: PlayOptions(loop: true)))
        let rest = Int(reverb.restFrames(rate: 48_000))
        _ = try engine.render(frames: rest * 2)
        #expect(Self.resting(engine).isEmpty)
        engine.pauseAll()
        _ = try engine.render(frames: rest + 4_800)
        #expect(Self.resting(engine) == [.effects])
        // Resumed: the reverb is back from the resume's first frame.
        engine.resumeAll()
        let resumed = try engine.render(frames: 9_600)
        #expect(Self.resting(engine).isEmpty)
        #expect(AudioAnalysis.rms(resumed, frames: 4_800..<9_600) > 0.01)
    }
}
