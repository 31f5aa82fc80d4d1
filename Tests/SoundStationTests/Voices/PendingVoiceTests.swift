import SoundStationTesting
import Testing

@testable import SoundStation

/// Commands for a voice that has not begun yet (its start is later, or its sound still loads on the
/// SSH player) apply to it in the order they were given: what is heard once it begins is what the
/// calls asked for, and a stop before the start means it is never heard.
@Suite struct PendingVoiceTests {
    /// A 440 Hz tone of 1 s at 0.5, mono, and an offline engine with it loaded.
    static func engineWithTone() throws -> (AudioEngine, SoundBuffer) {
        let engine = try AudioEngine(output: .offline(sampleRate: 48_000, channels: 2))
        let tone = try engine.makeBuffer(Signals.sine(frequency: 440, seconds: 1), name: "tone")
        return (engine, tone)
    }

    /// What the tone played at 0.25 s with `options` renders as, for 36,000 frames.
    static func reference(_ options: PlayOptions) throws -> [Float] {
        let (engine, tone) = try engineWithTone()
        _ = try engine.play(tone, options: options, at: .milliseconds(250))
        return try engine.render(frames: 36_000).samples
    }

    @Test func aVolumeTweenPitchAndPanSetBeforeTheStartAreHeardFromTheStart() throws {
        let expected = try Self.reference(PlayOptions(volume: 0.25, pitch: 1.5, pan: 1))
        let (engine, tone) = try Self.engineWithTone()
        let voice = try #require(try engine.play(tone, at: .milliseconds(250)))
        var mix = try engine.render(frames: 4_800).samples
        // A volume at once, then a tween that ends before the start.
        try engine.setVolume(0.6, for: voice)
        try engine.setVolume(0.25, for: voice, tween: Tween(.milliseconds(50)))
        try engine.setPitch(1.5, for: voice)
        try engine.setPan(1, for: voice)
        mix += try engine.render(frames: 36_000 - 4_800).samples
        #expect(AudioAnalysis.peak(PCMAudio(sampleRate: 48_000, channels: 2, samples: expected)) > 0.1)
        let largest = zip(mix, expected).map { abs($0 - $1) }.max() ?? 1
        #expect(largest == 0, "differs by up to \(largest)")
    }

    /// An engine that played the tone for 0.25 s, rendered to 0.1 s: the voice waits for its start.
    static func waitingTone() throws -> (AudioEngine, VoiceHandle) {
        let (engine, tone) = try engineWithTone()
        let voice = try #require(try engine.play(tone, at: .milliseconds(250)))
        _ = try engine.render(frames: 4_800)
        return (engine, voice)
    }

    /// At once, or with a fade that ends before the start.
    @Test(arguments: [Duration.zero, .milliseconds(100)])
    func aStopBeforeTheStartMeansTheVoiceIsNeverHeard(fade: Duration) throws {
        let (engine, voice) = try Self.waitingTone()
        engine.stop(voice, fade: fade)
        let mix = try engine.render(frames: 48_000)
        #expect(AudioAnalysis.peak(mix) == 0)
        #expect(!engine.isActive(voice))
    }

    @Test func aPauseBeforeTheStartHoldsTheVoiceUntilItsResume() throws {
        let (engine, voice) = try Self.waitingTone()
        engine.pause(voice)
        let held = try engine.render(frames: 24_000)
        #expect(AudioAnalysis.peak(held) == 0)
        #expect(engine.isActive(voice))
        engine.resume(voice)
        let mix = try engine.render(frames: 24_000)
        // From the tone's start (its first sample is 0), at the frame of the resume.
        #expect(AudioAnalysis.onset(mix, threshold: 0.01) == 1)
    }

    /// A voice whose play comes later (the SSH player's play of a sound still loading) takes the
    /// commands given meanwhile in order, once its play comes: a volume and a pan set, and a pause
    /// then a resume, are heard from its start as if given with the play.
    @Test func commandsForAnAwaitedVoiceApplyOnceItsPlayComes() throws {
        let expected = try Self.reference(PlayOptions(volume: 0.25, pitch: 1.5, pan: 1))
        let (engine, tone) = try Self.engineWithTone()
        let voice = try #require(engine.awaitVoice())
        var mix = try engine.render(frames: 2_400).samples
        try engine.setVolume(0.5, for: voice)
        engine.pause(voice)
        mix += try engine.render(frames: 2_400).samples
        try engine.setVolume(0.25, for: voice)
        try engine.setPitch(1.5, for: voice)
        try engine.setPan(1, for: voice)
        engine.resume(voice)
        mix += try engine.render(frames: 2_400).samples
        #expect(engine.activeVoiceCount == 0)
        let played = engine.trigger(
            tone.id, options: PlayOptions(), at: .milliseconds(250), soundDefaults: false,
            retained: Unmanaged.passRetained(tone).toOpaque(), ticket: voice.ticket)
        #expect(played == voice)
        mix += try engine.render(frames: 36_000 - 7_200).samples
        let largest = zip(mix, expected).map { abs($0 - $1) }.max() ?? 1
        #expect(largest == 0, "differs by up to \(largest)")
    }

    /// A stop given before the play of an awaited voice comes: it is never heard, whatever comes
    /// after the stop; one given up (its play will not come) keeps nothing.
    @Test func anAwaitedVoiceStoppedBeforeItsPlayIsNeverHeard() throws {
        let (engine, tone) = try Self.engineWithTone()
        let voice = try #require(engine.awaitVoice())
        _ = try engine.render(frames: 256)
        engine.stop(voice, fade: .milliseconds(500))
        try engine.setVolume(1, for: voice)
        engine.resume(voice)
        _ = engine.trigger(
            tone.id, options: PlayOptions(), at: nil, soundDefaults: false,
            retained: Unmanaged.passRetained(tone).toOpaque(), ticket: voice.ticket)
        let mix = try engine.render(frames: 24_000)
        #expect(AudioAnalysis.peak(mix) == 0)
        #expect(!engine.isActive(voice))

        let forgotten = try #require(engine.awaitVoice())
        engine.stop(forgotten)
        engine.forgetVoice(forgotten)
        _ = engine.trigger(
            tone.id, options: PlayOptions(), at: nil, soundDefaults: false,
            retained: Unmanaged.passRetained(tone).toOpaque(), ticket: forgotten.ticket)
        #expect(AudioAnalysis.peak(try engine.render(frames: 4_800)) > 0.1)
    }
}
