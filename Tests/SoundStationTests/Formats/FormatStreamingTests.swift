import Foundation
import SoundStationTesting
import Testing

@testable import SoundStation

/// Every format streams through the engine as music, sample for sample as when preloaded.
@Suite(.enabled(if: FormatTools.have("sox")))
struct FormatStreamingTests {
    @Test("streamed FLAC, MP3, Opus, mu-law, 24-bit RIFX and PCM WAV music render exactly as preloaded")
    func streamedMatchesPreloaded() async throws {
        let assets = try TestAssets()
        var files: [String: (file: String, tool: String, options: [String])] = [
            "flac": ("music.flac", "sox", []), "mulaw": ("mulaw.wav", "sox", ["-e", "mu-law"]),
            "rifx": ("rifx.wav", "sox", ["-b", "24", "-B"]), "pcm": ("pcm.wav", "sox", ["-b", "16"]),
        ]
        if FormatTools.have("lame") { files["mp3"] = ("music.mp3", "lame", ["--quiet"]) }
        if FormatTools.have("opusenc") { files["opus"] = ("music.opus", "opusenc", ["--quiet"]) }
        let source = "\(assets.root)/source.wav"
        try FormatTools.run(
            "sox",
            [
                "-n", "-r", "48000", "-c", "2", "-b", "16", source, "synth", "3", "sine", "220", "sine",
                "330", "vol", "0.5",
            ])
        for (ext, made) in files {
            let path = "\(assets.root)/\(made.file)"
            if made.tool == "sox" {
                try FormatTools.run("sox", [source] + made.options + [path])
            } else {
                try FormatTools.run(made.tool, made.options + [source, path])
            }
            assets.add(
                "\(ext)-streamed", file: made.file, kind: "music", extra: "\"stream\": true, \"loop\": false")
            assets.add("\(ext)-whole", file: made.file, kind: "music", extra: "\"loop\": false")
        }
        let system = try await assets.system()
        for ext in files.keys {
            #expect(system.bank.isStreamed("\(ext)-streamed"))
            #expect(!system.bank.isStreamed("\(ext)-whole"))
            try system.music.play("\(ext)-streamed", at: system.engine.time)
            let streamed = try system.engine.render(frames: 96_000)
            system.music.stop(at: system.engine.time)
            _ = try system.engine.render(frames: 512)
            try system.music.play("\(ext)-whole", at: system.engine.time)
            let whole = try system.engine.render(frames: 96_000)
            system.music.stop(at: system.engine.time)
            _ = try system.engine.render(frames: 512)
            #expect(AudioAnalysis.rms(whole) > 0.1, "\(ext)")
            let difference = zip(streamed.samples, whole.samples).map { abs($0 - $1) }.max() ?? 1
            #expect(difference < 1e-6, "\(ext): \(difference)")
        }
    }

    @Test(
        "music files cut short load in the bank with a warning, streamed and whole",
        .enabled(if: FormatTools.have("opusenc")))
    func cutShortMusicLoads() async throws {
        let assets = try TestAssets()
        let source = "\(assets.root)/source.wav"
        try FormatTools.run(
            "sox",
            [
                "-n", "-r", "48000", "-c", "2", "-b", "16", source, "synth", "4", "sine", "220", "whitenoise",
                "vol", "0.5",
            ])
        let whole = "\(assets.root)/whole.opus"
        try FormatTools.run("opusenc", ["--quiet", source, whole])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: whole))
        try bytes.prefix(bytes.count * 6 / 10).write(to: URL(fileURLWithPath: "\(assets.root)/cut.opus"))
        let wav = try Data(contentsOf: URL(fileURLWithPath: source))
        try wav.prefix(wav.count / 2).write(to: URL(fileURLWithPath: "\(assets.root)/cut.wav"))
        assets.add(
            "opus-streamed", file: "cut.opus", kind: "music", extra: "\"stream\": true, \"loop\": false")
        assets.add("opus-whole", file: "cut.opus", kind: "music", extra: "\"loop\": false")
        assets.add("wav-streamed", file: "cut.wav", kind: "music", extra: "\"stream\": true, \"loop\": false")
        assets.add("wav-strict", file: "cut.wav", kind: "music", extra: "\"strict\": true")
        let engine = try AudioEngine(output: .offline(sampleRate: 48_000, channels: 2))
        let system = SoundSystem(engine: engine, catalogue: try assets.catalogue())
        let loaded = try await system.bank.preload()
        #expect(Set(loaded.names) == ["opus-streamed", "opus-whole", "wav-streamed"])
        #expect(loaded.failures.count == 1 && loaded.failures.first?.description.contains("cut.wav") == true)
        for name in ["opus-streamed", "opus-whole", "wav-streamed"] {
            try system.music.play(name, at: system.engine.time)
            let mix = try system.engine.render(frames: 24_000)
            #expect(AudioAnalysis.rms(mix) > 0.05, "\(name)")
            system.music.stop(at: system.engine.time)
            _ = try system.engine.render(frames: 512)
        }
    }

    @Test("looping module music streams and plays on past one pass of its song")
    func moduleMusicStreams() async throws {
        let assets = try TestAssets()
        try Data(ModuleFixture.mod()).write(to: URL(fileURLWithPath: "\(assets.root)/song.mod"))
        assets.add("song", file: "song.mod", kind: "music")
        let system = try await assets.system()
        #expect(system.bank.isStreamed("song"))
        try system.music.play("song", at: .seconds(0))
        let mix = try system.engine.render(frames: Int(ModuleFixture.patternSeconds * 48_000 * 5))
        let tail = Array(mix.samples.suffix(48_000))
        #expect(AudioAnalysis.rms(PCMAudio(sampleRate: 48_000, channels: 2, samples: tail)) > 0.03)
    }
}
