import SoundStationTesting
import Testing

@testable import SoundStation

@Suite struct MixingTests {
    @Test func sixteenFullScaleEffectsNeverPassFullScale() async throws {
        let assets = try TestAssets()
        for index in 0..<16 {
            try assets.addWAV(
                "loud\(index)", Signals.sine(frequency: 100 + 37 * Double(index), seconds: 0.5, amplitude: 1))
        }
        let system = try await assets.system()
        for index in 0..<16 { try system.effects.play("loud\(index)", at: .seconds(0.01)) }
        let mix = try system.engine.render(frames: 24_000)
        #expect(AudioAnalysis.peak(mix) <= 1.0)
        #expect(AudioAnalysis.peak(mix) > 0.9)
    }

    @Test func softClipperLeavesQuietSamplesAloneAndBendsLoudOnes() {
        #expect(SoftClipper.shape(0.5) == 0.5)
        #expect(SoftClipper.shape(-0.8) == -0.8)
        #expect(SoftClipper.shape(0.9) > 0.85 && SoftClipper.shape(0.9) < 0.9)
        #expect(SoftClipper.shape(12) <= 1 && SoftClipper.shape(-12) >= -1)
        let curve = stride(from: Float(0), through: 4, by: 0.01).map(SoftClipper.shape)
        #expect(zip(curve, curve.dropFirst()).allSatisfy { $0 <= $1 }, "the curve never folds back")
    }

    @Test func softClipperFindsALoudSampleAnywhereInABlock() {
        // The block's peak is scanned in vector lanes (16 and 32 at a time) with a scalar tail: a
        // loud sample in any lane or in the tail, of either sign, must still be shaped, and a block
        // within the knee left exactly as it was.
        for count in [1, 7, 15, 16, 17, 31, 32, 33, 47, 64, 100, 2_048] {
            let quiet = (0..<count).map { Float(($0 * 37) % 19) / 19 * 0.79 - 0.395 }
            var untouched = quiet
            SoftClipper.apply(to: &untouched)
            #expect(untouched == quiet)
            for at in Set([0, count / 2, count - 1]) {
                for loud: Float in [0.95, -3, .infinity] {
                    var block = quiet
                    block[at] = loud
                    var expected = block
                    for i in expected.indices { expected[i] = SoftClipper.shape(expected[i]) }
                    SoftClipper.apply(to: &block)
                    #expect(block == expected, "\(count) samples, \(loud) at \(at)")
                }
            }
        }
        var withNaN: [Float] = [0.1, .nan, 0.9]
        SoftClipper.apply(to: &withNaN)
        #expect(withNaN[0] == 0.1 && withNaN[1].isNaN && withNaN[2] == SoftClipper.shape(0.9))
    }

    @Test func busVolumeAndMuteGlideWithoutClicks() async throws {
        let assets = try TestAssets()
        try assets.addWAV("song", Signals.stereoTones(left: 200, right: 200, seconds: 1), kind: "music")
        let system = try await assets.system()
        try system.music.play("song")
        let full = AudioAnalysis.rms(try system.engine.render(frames: 4_800))
        try system.engine.setVolume(0.5, for: .music)
        let gliding = try system.engine.render(frames: 4_800)
        let half = AudioAnalysis.rms(try system.engine.render(frames: 4_800))
        #expect(abs(AudioAnalysis.decibels(half / full) + 6.02) < 0.1)
        // A 20 ms glide: no step in the output larger than the tone's own steepest slope.
        #expect(
            AudioAnalysis.largestJump(gliding, frames: 0..<4_800) <= AudioAnalysis.largestJump(
                Signals.stereoTones(left: 200, right: 200, seconds: 0.1), frames: 0..<4_800) * 1.01)
        try system.engine.setVolume(2, for: .master)
        #expect(
            abs(
                AudioAnalysis.decibels(
                    AudioAnalysis.rms(try system.engine.render(frames: 4_800), frames: 1_200..<4_800) / full))
                < 0.1)
        system.engine.setMuted(true, for: .music)
        _ = try system.engine.render(frames: 1_200)
        #expect(AudioAnalysis.peak(try system.engine.render(frames: 4_800)) == 0)
        #expect(system.engine.volume(of: .music) == 0.5 && system.engine.isMuted(.music))
    }

    /// Housekeeping skips a voice's gain while nothing it depends on moves (issue 23); a change to
    /// the voice itself or to its bus after a long steady stretch must still be heard at once.
    @Test func aSteadyVoiceStillHearsItsVolumeAndItsBusChange() throws {
        let engine = try AudioEngine(output: .offline(sampleRate: 48_000, channels: 2))
        let tone = try engine.makeBuffer(
            PCMAudio(
                sampleRate: 48_000, channels: 1,
                samples: DecodingTestSignal.sine(frequency: 300, rate: 48_000, frames: 48_000)),
            name: "tone")
        let voice = try #require(try engine.play(tone, options: PlayOptions(loop: true, bus: .effects)))
        for _ in 0..<8 { _ = try engine.render(frames: 1_024) }
        let full = AudioAnalysis.rms(try engine.render(frames: 4_800))
        try engine.setVolume(0.25, for: voice)
        _ = try engine.render(frames: 1_200)
        let quarter = AudioAnalysis.rms(try engine.render(frames: 4_800))
        #expect(abs(AudioAnalysis.decibels(quarter / full) + 12.04) < 0.1)
        // Steady again, then its bus: the voice's settled gain is worked out again.
        for _ in 0..<8 { _ = try engine.render(frames: 1_024) }
        try engine.setVolume(0.5, for: .effects)
        _ = try engine.render(frames: 2_400)
        let eighth = AudioAnalysis.rms(try engine.render(frames: 4_800))
        #expect(abs(AudioAnalysis.decibels(eighth / full) + 18.06) < 0.1)
        // And a fade after a steady stretch runs to silence.
        for _ in 0..<8 { _ = try engine.render(frames: 1_024) }
        engine.stop(voice, fade: .milliseconds(100))
        let fading = try engine.render(frames: 4_800)
        let late = AudioAnalysis.rms(fading, frames: 3_600..<4_800)
        #expect(late > 0 && late < eighth * 0.5, "the fade's last quarter: \(late) against \(eighth)")
        _ = try engine.render(frames: 2_400)
        #expect(AudioAnalysis.peak(try engine.render(frames: 4_800)) == 0)
    }

    @Test func musicDucksUnderAVoiceNoteAndComesBack() async throws {
        let assets = try TestAssets()
        try assets.addWAV("song", Signals.stereoTones(left: 200, right: 200, seconds: 1), kind: "music")
        try assets.addWAV(
            "note", Signals.sine(frequency: 3_000, seconds: 0.5, amplitude: 0.01), kind: "voice")
        let system = try await assets.system()
        system.engine.ducking = Ducking(level: 0.25, attack: .seconds(0.05), release: .seconds(0.2))
        try system.music.play("song")
        try system.effects.play("note", at: .seconds(0.5))
        let mix = AudioAnalysis.channel(try system.engine.render(frames: 96_000), 0)
        let before = AudioAnalysis.rms(mix, frames: 12_000..<24_000)
        let ducked = AudioAnalysis.rms(mix, frames: 30_000..<46_000)
        let after = AudioAnalysis.rms(mix, frames: 72_000..<96_000)
        #expect(
            abs(AudioAnalysis.decibels(ducked / before) + 12) < 0.5,
            "ducked by \(AudioAnalysis.decibels(ducked / before)) dB")
        #expect(abs(AudioAnalysis.decibels(after / before)) < 0.1)
    }

    @Test func musicDucksUnderLoudEffectsOnlyWhenAsked() async throws {
        let assets = try TestAssets()
        try assets.addWAV("song", Signals.stereoTones(left: 200, right: 200, seconds: 1), kind: "music")
        try assets.addWAV("boom", Signals.sine(frequency: 3_000, seconds: 0.4, amplitude: 0.01))
        let system = try await assets.system()
        try system.music.play("song")
        try system.effects.play("boom", volume: 1, at: .seconds(0.25))
        try system.effects.play("boom", volume: 0.5, at: .seconds(1.0))
        system.engine.schedule(at: .seconds(0.75)) {
            system.engine.ducking = Ducking(
                level: 0.5, attack: .seconds(0.02), release: .seconds(0.05), underLoudEffects: true)
        }
        let mix = AudioAnalysis.channel(try system.engine.render(frames: 96_000), 0)
        let before = AudioAnalysis.rms(mix, frames: 2_400..<9_600)
        // Off by default: the first (loud) effect leaves the music alone.
        #expect(abs(AudioAnalysis.decibels(AudioAnalysis.rms(mix, frames: 14_400..<28_800) / before)) < 0.2)
        // On, but the second effect is below the loud volume: still no duck.
        #expect(abs(AudioAnalysis.decibels(AudioAnalysis.rms(mix, frames: 50_400..<64_800) / before)) < 0.2)
        system.engine.schedule(at: .seconds(2.2)) { _ = try? system.effects.play("boom") }
        let loud = AudioAnalysis.channel(try system.engine.render(frames: 48_000), 0)
        #expect(
            abs(AudioAnalysis.decibels(AudioAnalysis.rms(loud, frames: 12_000..<24_000) / before) + 6.02)
                < 0.3)
    }

    @Test func pauseAllHoldsEverythingAndResumeAllContinues() async throws {
        let assets = try TestAssets()
        let song = Signals.stereoTones(left: 200, right: 300, seconds: 2)
        try assets.addWAV("song", song, kind: "music")
        try assets.addWAV("fx", Signals.noise(seconds: 1))
        let system = try await assets.system()
        try system.music.play("song")
        try system.effects.play("fx")
        _ = try system.engine.render(frames: 4_800)
        system.engine.pauseAll()
        #expect(system.engine.isPaused)
        try system.effects.play("fx")
        // Silent once the 20 ms glide (960 frames) and OpenAL's smoothing of its last step are over.
        let paused = try system.engine.render(frames: 9_600)
        #expect(paused.samples[(2 * 1_472)...].allSatisfy { $0 == 0 })
        system.engine.resumeAll()
        #expect(AudioAnalysis.rms(try system.engine.render(frames: 4_800)) > 0.2)
        #expect(system.engine.activeVoiceCount == 3)
    }

    @Test func pauseAndResumeGlideInsteadOfClicking() async throws {
        let assets = try TestAssets()
        try assets.addWAV("tone", Signals.sine(frequency: 200, seconds: 2, amplitude: 0.8), kind: "music")
        let system = try await assets.system()
        try system.music.play("tone")
        let before = try system.engine.render(frames: 4_800)
        // The tone's own largest step between samples (a mono voice is -4.5 dB on each side).
        let own = AudioAnalysis.largestJump(before, frames: 100..<4_800)
        system.engine.pauseAll()
        let paused = try system.engine.render(frames: 4_800)
        #expect(
            AudioAnalysis.rms(paused, frames: 0..<240) > 0.3 * AudioAnalysis.rms(before, frames: 0..<4_800))
        #expect(AudioAnalysis.rms(paused, frames: 720..<960) < AudioAnalysis.rms(paused, frames: 0..<240))
        // Silent from the glide's end (960 frames) plus at most one housekeeping step to reach the
        // 256-frame grid and one in which OpenAL smooths the last step.
        #expect(AudioAnalysis.peak(paused, frames: 1_472..<4_800) == 0)
        #expect(AudioAnalysis.largestJump(paused, frames: 0..<4_800) <= own * 1.1)
        // Across the pause's first frame too: the render goes on from the last frame before it.
        let seam = PCMAudio(
            sampleRate: 48_000, channels: 2,
            samples: Array(before.samples.suffix(20) + paused.samples.prefix(20)))
        #expect(AudioAnalysis.largestJump(seam, frames: 0..<20) <= own * 1.1)
        system.engine.resumeAll()
        let resumed = try system.engine.render(frames: 4_800)
        #expect(AudioAnalysis.peak(resumed, frames: 0..<4) < 0.05)
        #expect(AudioAnalysis.largestJump(resumed, frames: 0..<4_800) <= own * 1.1)
        #expect(
            abs(
                AudioAnalysis.rms(resumed, frames: 1_500..<4_800)
                    / AudioAnalysis.rms(before, frames: 100..<4_800) - 1)
                < 0.05)
    }

    @Test func aSoundStartedWhilePausedIsAnnouncedWhenFirstHeard() async throws {
        let assets = try TestAssets()
        try assets.addWAV("fx", Signals.sine(frequency: 440, seconds: 0.5))
        let system = try await assets.system()
        let started = Locked<[Duration]>([])
        let subscription = system.engine.onEvent { event in
            if case .started(_, "fx", let time) = event { started.withLock { $0.append(time) } }
        }
        defer { subscription.cancel() }
        system.engine.pauseAll()
        _ = try system.engine.render(frames: 2_400)
        try system.effects.play("fx")
        let paused = try system.engine.render(frames: 2_400)
        #expect(AudioAnalysis.peak(paused) == 0)
        #expect(started.withLock { $0 }.isEmpty)
        system.engine.resumeAll()
        let resumed = try system.engine.render(frames: 4_800)
        // Heard from the resume on (its first frames glide up from silence).
        #expect((AudioAnalysis.onset(resumed) ?? .max) < 256)
        #expect(started.withLock { $0 } == [.milliseconds(100)])
    }
}
