import Foundation
import SoundStation

/// `mix-N`: CPU time to render 10 s offline with N looping mono voices, in 1024-frame renders.
enum MixCase {
    static let voiceCounts = [1, 16, 64, 255]
    static let chunk = 1_024
    static let rate = 48_000
    static let frames = rate * 10

    static var names: [String] { voiceCounts.map { "mix-\($0)" } }

    static func run(runs: Int, cases: CaseFilter) throws {
        for voices in voiceCounts where cases.wants("mix-\(voices)") {
            let engine = try AudioEngine(output: .offline(sampleRate: rate, channels: 2))
            let tones = try (0..<4).map { k in
                try engine.makeBuffer(tone(frequency: 220 * Double(k + 1)), name: "tone\(k)")
            }
            for v in 0..<voices {
                let pan: Float = voices == 1 ? 0 : -1 + 2 * Float(v) / Float(voices - 1)
                let options = PlayOptions(volume: 0.8 / Float(voices), pan: pan, loop: true)
                guard try engine.play(tones[v % tones.count], options: options) != nil else {
                    fail("mix: voice \(v) of \(voices) was refused")
                }
            }
            _ = try engine.render(frames: chunk)  // the voices start here
            guard engine.activeVoiceCount == voices else {
                fail("mix: \(engine.activeVoiceCount) voices playing instead of \(voices)")
            }
            let samples = try repeated(runs: runs) { _ in
                let start = BenchClock.processCPU()
                var done = 0
                while done < frames {
                    let count = min(chunk, frames - done)
                    _ = try engine.render(frames: count)
                    done += count
                }
                return (BenchClock.processCPU() - start) * 1e3
            }
            CaseReport(
                case: "mix-\(voices)", unit: "ms",
                label: "AudioEngine.render(frames: 1024) (CPU time for 10 s)",
                samples: samples
            ).emit()
        }
    }

    /// One second of a sine at half scale, as the C peer makes it.
    private static func tone(frequency: Double) -> PCMAudio {
        let samples = (0..<rate).map { i in
            Float(0.5 * sin(2 * Double.pi * frequency * Double(i) / Double(rate)))
        }
        return PCMAudio(sampleRate: rate, channels: 1, samples: samples)
    }
}
