import SoundStationTesting
import Testing

@testable import SoundStation

/// OpenAL Soft 1.19's reverb cross-fades its delay lines over its first 128 frames (and after a
/// change of density, diffusion or decay); a loopback render that stopped mid-fade at a count not a
/// multiple of 4, followed by a longer one, made its next step zero samples long, which its filter
/// took for billions and ran off its buffer (SIGSEGV: a third of silent Starfall games under load
/// died of it). ``OpenALDevice/render(into:frames:)`` cuts its calls so that never happens.
@Suite struct ReverbFadeTests {
    @Test(arguments: [ReverbPreset.cave, .hallway])
    func oddRendersThroughAReverbsFadeKeepTheTail(preset: ReverbPreset) throws {
        func render(pieces: [Int], switches: Bool) throws -> PCMAudio {
            let engine = try AudioEngine(output: .offline(sampleRate: 48_000, channels: 2))
            try engine.setReverb(preset, for: .effects)
            try engine.play(try engine.makeBuffer(Signals.sine(frequency: 500, seconds: 0.02), name: "burst"))
            var samples: [Float] = []
            for (index, frames) in pieces.enumerated() {
                // A change of decay mid-way starts another fade, on a state that has run.
                if switches, index == 3 {
                    var changed = preset.parameters
                    changed.decayTime *= 0.9
                    try engine.setReverb(changed, for: .effects)
                }
                samples += try engine.render(frames: frames).samples
            }
            return PCMAudio(sampleRate: 48_000, channels: 2, samples: samples)
        }
        // 7 frames into the fade, then 500 (the crash); then 3, 1 and 2 around a second fade.
        let pieces = [7, 500, 13, 3, 1, 2, 4_800, 19_174]
        let odd = try render(pieces: pieces, switches: false)
        let whole = try render(pieces: [pieces.reduce(0, +)], switches: false)
        #expect(odd.frameCount == 24_500)
        // The same reverb whatever the pieces: the render's cut only moves where OpenAL's steps fall.
        let tail = 4_800..<24_500
        let level = AudioAnalysis.rms(odd, frames: tail)
        let reference = AudioAnalysis.rms(whole, frames: tail)
        #expect(level > 0.001 && abs(AudioAnalysis.decibels(level) - AudioAnalysis.decibels(reference)) < 0.5)
        let switched = try render(pieces: pieces, switches: true)
        #expect(AudioAnalysis.rms(switched, frames: tail) > 0.001)
    }
}
