import Foundation
import SoundStationTesting
import Testing

@testable import SoundStation

@Suite struct SoundCueTests {
    @Test(arguments: [
        "1.5:effect:reward", "0:music:main", "2:music:game:crossfade=1.5", "3:music:main:fade=2",
        "4:stop-music", "5:stop-music:fade=0.5", "6:pause", "7:resume", "8:volume:music:0.5",
        "1:music:game:crossfade=0.5:at=bar", "1:music:game:at=bars=4", "2:music:calm:at=marker=calm-exit",
        "3:effect:levelup:at=beat", "3:effect:levelup:at=bar", "0:music:main:fade=1:at=beat",
        "1:effect:coin:pan=-0.5", "1:effect:coin:pos=12,3.5", "0:listener:40,24",
        "2:effect:coin:pan=0.5:at=beat",
        "2:filter:music:lowpass=800",
        "2:filter:effects:highpass=300", "3:filter:music:off", "0:reverb:effects:cave", "4:reverb:music:off",
        "1:intensity:0.5", "2:intensity:1:over=2", "3:tempo:140", "4:tempo:90.5:over=4:ease=in-out-cubic",
        "5:intensity:0:over=1:ease=equal-power",
    ])
    func cuesReadBackAsWritten(text: String) throws {
        #expect(try SoundCue(parsing: text).description == text)
    }

    @Test func partsAreRead() throws {
        #expect(
            try SoundCue(parsing: "2:music:game:crossfade=1.5")
                == SoundCue(
                    time: .seconds(2), action: .music(name: "game", transition: .crossfade(.seconds(1.5)))))
        #expect(
            try SoundCue(parsing: "1:music:game:crossfade=0.5:at=bars=2")
                == SoundCue(
                    time: .seconds(1), action: .music(name: "game", transition: .crossfade(.seconds(0.5))),
                    quantize: .bars(2)))
        #expect(
            try SoundCue(parsing: "1:effect:hit:at=now")
                == SoundCue(time: .seconds(1), action: .effect(name: "hit")))
        #expect(
            try SoundCue(parsing: "1:effect:hit:at=marker=drop")
                == SoundCue(time: .seconds(1), action: .effect(name: "hit"), quantize: .marker("drop")))
        #expect(
            try SoundCue(parsing: "0.25:volume:effects:0")
                == SoundCue(time: .seconds(0.25), action: .volume(bus: .effects, gain: 0)))
    }

    @Test(arguments: [
        ("x:effect:a", "must start with a time"), ("-1:effect:a", "must start with a time"),
        ("1:boom:a", "unknown kind \"boom\""), ("1:effect", "expected T:effect:NAME"),
        ("1:music:a:fade=-2", "\"-2\" is not fade in seconds"), ("1:music:a:slow=2", "expected T:music:NAME"),
        ("1:volume:drums:1", "\"drums\" is not master, music, effects or voice"),
        ("1:volume:music:loud", "\"loud\" is not a gain"), ("1:pause:now", "expected T:pause"),
        ("1:music:a:at=soon", "\"soon\" is not a grid point"),
        ("1:music:a:at=bars=0", "\"bars=0\" is not a grid"),
        ("1:effect:a:at=marker=", "\"marker=\" is not a grid"),
        ("1:effect:a:at=bar:x", "expected T:effect:NAME"),
        ("1:effect:a:pan=1.5", "\"1.5\" is not a pan in -1...1"),
        ("1:effect:a:pos=1", "\"1\" is not a position"),
        ("1:effect:a:pos=nan,2", "\"nan\" is not a finite coordinate"), ("1:listener:3", "is not a position"),
        ("1:filter:music:lowpass=-5", "\"-5\" is not a cutoff"),
        ("1:filter:music:notch=5", "expected T:filter"),
        ("1:reverb:music:spaceship", "\"spaceship\" is not a reverb preset"),
        ("1:reverb:drums:cave", "\"drums\" is not master"),
        ("1:intensity:1.5", "\"1.5\" is not an intensity from 0 to 1"),
        ("1:intensity:loud", "\"loud\" is not an intensity"), ("1:intensity", "expected T:intensity:X"),
        ("1:tempo:0", "\"0\" is not a tempo above 0"), ("1:tempo:120:slow=2", "expected T:tempo:BPM"),
        ("1:tempo:120:over=-1", "\"-1\" is not over in seconds"),
        ("1:tempo:120:over=2:ease=bouncy", "\"bouncy\" is not an easing (linear, in-quad"),
        ("1:intensity:1:over=2:bouncy", "expected T:intensity:X"),
    ])
    func badCuesSayWhatIsWrong(text: String, message: String) {
        do {
            _ = try SoundCue(parsing: text)
            Issue.record("\(text) was accepted")
        } catch {
            #expect(error.description.contains(text) && error.description.contains(message), "\(error)")
        }
    }

    @Test func aCutoffAboveHalfTheRateIsRefused() throws {
        let cue = try SoundCue(parsing: "0:filter:music:lowpass=30000")
        #expect(throws: SoundCueError.self) { try cue.check(sampleRate: 48_000) }
        try cue.check(sampleRate: 96_000)
    }

    @Test func spaceCuesRenderAsDescribed() async throws {
        let assets = try TestAssets()
        try assets.addWAV("blip", Signals.sine(frequency: 500, seconds: 0.05))
        try assets.addWAV("tones", SpaceTests.twoTones(low: 200, high: 12_000))
        let system = try await assets.system()
        let engine = system.engine
        // A listener at the centre of an 80-wide field; a blip 30 to the left is heard on the left.
        try system.perform(.listener(SoundPosition(x: 40, y: 0)))
        _ = try engine.render(frames: 4_800)  // the listener glides there over 50 ms
        try system.perform(try SoundCue(parsing: "0:effect:blip:pos=10,0").action)
        let placed = try engine.render(frames: 4_800)
        #expect(AudioAnalysis.rms(placed, channel: 0) > 10 * AudioAnalysis.rms(placed, channel: 1))
        try system.perform(try SoundCue(parsing: "0:effect:blip:pan=0.5").action)
        let panned = try engine.render(frames: 4_800)
        #expect(AudioAnalysis.rms(panned, channel: 1) > 3 * AudioAnalysis.rms(panned, channel: 0))
        // A reverb on the effects bus leaves a tail after the blip; off leaves none.
        try system.perform(try SoundCue(parsing: "0:reverb:effects:cave").action)
        try system.perform(try SoundCue(parsing: "0:effect:blip").action)
        let wet = try engine.render(frames: 24_000)
        #expect(AudioAnalysis.rms(wet, frames: 9_600..<24_000) > 1e-4)
        try system.perform(try SoundCue(parsing: "0:reverb:effects:off").action)
        _ = try engine.render(frames: 48_000 * 4)
        try system.perform(try SoundCue(parsing: "0:effect:blip").action)
        let dry = try engine.render(frames: 24_000)
        #expect(AudioAnalysis.rms(dry, frames: 9_600..<24_000) < 1e-6)
        // A low-pass on the effects bus takes the 12 kHz tone down by more than 20 dB.
        try system.perform(try SoundCue(parsing: "0:effect:tones").action)
        let plain = try engine.render(frames: 24_000)
        try system.perform(try SoundCue(parsing: "0:filter:effects:lowpass=500").action)
        try system.perform(try SoundCue(parsing: "0:effect:tones").action)
        let muffled = try engine.render(frames: 24_000)
        let frames = 4_800..<19_200
        let drop =
            10
            * log10(
                SpaceTests.energy(muffled, at: 12_000, channel: 0, frames: frames)
                    / SpaceTests.energy(plain, at: 12_000, channel: 0, frames: frames))
        #expect(drop < -20, "12 kHz down by \(drop) dB")
    }

    @Test func tempoCuesStartAClockThatEffectsFollow() async throws {
        let assets = try TestAssets()
        try assets.addWAV("blip", Signals.sine(frequency: 500, seconds: 0.05))
        let system = try await assets.system()
        let cues = ["0:tempo:120", "0.7:effect:blip:at=beat", "1.2:tempo:240", "1.3:effect:blip:at=beat"]
        for text in cues {
            let cue = try SoundCue(parsing: text)
            system.engine.schedule(at: cue.time) { try? system.perform(cue) }
        }
        let mix = try system.engine.render(frames: 96_000)
        // 120 bpm from 0: the beat after 0.7 s is at 1 s. At 1.2 s (2.4 beats) the tempo doubles: the
        // next beat (3) is 0.6 beats of 0.25 s later, at 1.35 s. (A sine's first sample is 0.)
        #expect(AudioAnalysis.onset(mix, threshold: 0) == 48_000 + 1)
        #expect(AudioAnalysis.onset(mix, threshold: 0, from: 60_000) == 64_800 + 1)
        #expect(system.cueClock?.bpm == 240)
    }

    @Test func intensityCuesMoveTheLayers() async throws {
        let assets = try TestAssets()
        let silence = PCMAudio(sampleRate: 48_000, channels: 2, samples: [Float](repeating: 0, count: 96_000))
        let pad = PCMAudio(sampleRate: 48_000, channels: 2, samples: [Float](repeating: 0.25, count: 96_000))
        try WAVWriter.write(pad, toFileAt: "\(assets.root)/pad.wav", format: .float32)
        try assets.addWAV(
            "layered", silence, kind: "music", extra: "\"stems\": [{\"path\": \"pad.wav\", \"from\": 0.5}]")
        let system = try await assets.system()
        for text in ["0:music:layered", "0:intensity:0", "0.5:intensity:1:over=0.5:ease=in-quad"] {
            let cue = try SoundCue(parsing: text)
            system.engine.schedule(at: cue.time) { try? system.perform(cue) }
        }
        let mix = try system.engine.render(frames: 72_000)
        #expect(mix.samples[12_000 * 2] == 0)
        // Half way (0.75 s), in-quad: a quarter of the way up (the stem joins at 0.5, full there).
        #expect(abs(mix.samples[36_000 * 2] - 0.25 * 0.25) < 1e-3)
        #expect(abs(mix.samples[60_000 * 2] - 0.25) < 1e-6)
    }
}
