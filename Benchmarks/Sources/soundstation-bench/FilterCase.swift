import Foundation
@_spi(Benchmarks) import SoundStation

/// The cost of the engine's own cutoff filters and of EFX reverb, against the same mix without them:
///
/// - `filter-lowpass-N`: `mix-N`'s render (N looping mono voices, 10 s offline in 1024-frame renders)
///   with a 1 kHz low-pass on their bus, so every voice is fed through the filtered path;
/// - `filter-reverb-N`: the same with the cave preset's reverb on their bus instead;
/// - `filter-reverb-idle-16`: `mix-16` with the cave reverb on the voice bus, where nothing plays: what
///   a reverb costs while nothing sends to it (at rest once its tail has died, issue 23);
/// - `filter-latency-device`: on the device, how far a filtered voice's queue runs ahead of what is
///   heard (ms): the delay a change of filter is heard with, beyond the device's own.
///
/// The low-pass and reverb rows have two peers: the engine itself without the filter or reverb
/// (`soundstation-unfiltered`) and the same job written in C on OpenAL Soft (`raw-openal-bench`'s
/// filter.c); `filter-reverb-idle-16` only the first. Every row reports its render's RMS after the
/// runs (`extra.rms`), which `bench.py` compares with the C peer's.
enum FilterCase {
    static let voiceCounts = [16, 64]
    static var names: [String] {
        voiceCounts.flatMap { ["filter-lowpass-\($0)", "filter-reverb-\($0)"] }
            + ["filter-reverb-idle-16", "filter-latency-device"]
    }

    static func run(runs: Int, cases: CaseFilter) throws {
        for voices in voiceCounts {
            let mixes: [(String, (AudioEngine) throws -> Void)] = [
                ("filter-lowpass-\(voices)", { try $0.setFilter(.lowpass(cutoff: 1_000), for: .effects) }),
                ("filter-reverb-\(voices)", { try $0.setReverb(ReverbPreset.cave, for: .effects) }),
            ]
            let idle: [(String, (AudioEngine) throws -> Void)] = [
                ("filter-reverb-idle-\(voices)", { try $0.setReverb(ReverbPreset.cave, for: .voice) })
            ]
            for (name, effect) in mixes + (voices == 16 ? idle : []) where cases.wants(name) {
                let plain = try AudioEngine(output: .offline(sampleRate: MixCase.rate, channels: 2))
                try MixCase.start(voices, on: plain, label: name)
                let coloured = try AudioEngine(output: .offline(sampleRate: MixCase.rate, channels: 2))
                try effect(coloured)
                try MixCase.start(voices, on: coloured, label: name)
                // Interleaved, so a busy moment of the machine lands on both.
                var (withIt, without): ([Double], [Double]) = ([], [])
                for _ in 0..<runs {
                    withIt += try MixCase.renderCPU(coloured, runs: 1)
                    without += try MixCase.renderCPU(plain, runs: 1)
                }
                let label = "AudioEngine.render(frames: 1024) (CPU time for 10 s), \(voices) voices"
                CaseReport(
                    case: name, unit: "ms", label: label + " with it", samples: withIt,
                    extra: ["rms": try rms(coloured)]
                ).emit()
                CaseReport(
                    case: name, side: "engine-variant", peer: "soundstation-unfiltered", unit: "ms",
                    label: label + " without", samples: without, extra: ["rms": try rms(plain)]
                ).emit()
            }
        }
        if cases.wants("filter-latency-device") { try deviceLatency(runs: runs) }
    }

    /// The RMS of both channels over the next 47 renders of 1024 frames (1 s and a little), as the C
    /// peer measures its own: the same voices through the same colour must come out at the same
    /// level (`bench.py report` compares them), so a peer that skipped work would show.
    private static func rms(_ engine: AudioEngine) throws -> Double {
        var sum = 0.0
        var count = 0
        for _ in 0..<47 {
            let block = try engine.render(frames: MixCase.chunk)
            for sample in block.samples { sum += Double(sample) * Double(sample) }
            count += block.samples.count
        }
        return (sum / Double(max(count, 1))).squareRoot()
    }

    /// Samples, every 10 ms over 1 s, the frames a filtered voice has queued beyond what is heard.
    private static func deviceLatency(runs: Int) throws {
        guard let engine = try? AudioEngine(output: .device()) else {
            progress("filter-latency-device: no playback device (run under Scripts/with-pulse.sh); left out")
            return
        }
        defer { engine.shutdown() }
        let tone = try engine.makeBuffer(
            PCMAudio(
                sampleRate: 48_000, channels: 1,
                samples: (0..<48_000).map { Float(0.2 * sin(2 * Double.pi * 440 * Double($0) / 48_000)) }),
            name: "tone")
        var filtered: [Double] = []
        var plain: [Double] = []
        for _ in 0..<runs {
            for (filter, into) in [(SoundFilter.lowpass(cutoff: 1_000), 0), (nil, 1)] {
                guard let voice = try? engine.play(tone, options: PlayOptions(loop: true, filter: filter))
                else {
                    fail("filter-latency-device: the tone was refused")
                }
                var ahead: [Double] = []
                Thread.sleep(forTimeInterval: 0.1)
                for _ in 0..<100 {
                    if let frames = engine.queuedAhead(of: voice) { ahead.append(Double(frames)) }
                    Thread.sleep(forTimeInterval: 0.01)
                }
                engine.stop(voice)
                let mean = ahead.isEmpty ? 0 : ahead.reduce(0, +) / Double(ahead.count)
                let ms = mean / Double(engine.sampleRate) * 1_000
                if into == 0 { filtered.append(ms) } else { plain.append(ms) }
            }
        }
        CaseReport(
            case: "filter-latency-device", unit: "ms",
            label: "a filtered voice's queue ahead of what is heard (mean of 100 reads over 1 s)",
            samples: filtered, note: engine.deviceName
        ).emit()
        CaseReport(
            case: "filter-latency-device", side: "engine-variant", peer: "soundstation-unfiltered",
            unit: "ms",
            label: "the same voice unfiltered: played from its buffer, nothing queued", samples: plain
        ).emit()
    }
}
