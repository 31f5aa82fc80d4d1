import Foundation
import Testing

@testable import SoundStation

/// Every format streams through the engine as music, sample for sample as when preloaded.
@Suite(.enabled(if: FormatTools.have("sox")))
struct FormatStreamingTests {
    @Test("streamed FLAC, MP3 and mu-law WAV music render exactly as preloaded")
    func streamedMatchesPreloaded() async throws {
        let assets = try TestAssets()
        var files = ["flac": ["-b", "16"], "wav": ["-e", "mu-law"]]
        if FormatTools.have("lame") { files["mp3"] = [] }
        for (ext, options) in files {
            let path = "\(assets.root)/music.\(ext)"
            let source = "\(assets.root)/source-\(ext).wav"
            try FormatTools.run(
                "sox",
                [
                    "-n", "-r", "48000", "-c", "2", "-b", "16", source, "synth", "3", "sine", "220", "sine",
                    "330", "vol", "0.5",
                ])
            if ext == "mp3" {
                try FormatTools.run("lame", ["--quiet", source, path])
            } else {
                try FormatTools.run("sox", [source] + options + [path])
            }
            assets.add(
                "\(ext)-streamed", file: "music.\(ext)", kind: "music",
                extra: "\"stream\": true, \"loop\": false")
            assets.add("\(ext)-whole", file: "music.\(ext)", kind: "music", extra: "\"loop\": false")
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

    @Test("looping module music streams and plays on past one pass of its song")
    func moduleMusicStreams() async throws {
        let assets = try TestAssets()
        try Data(ModuleFixture.mod()).write(to: URL(fileURLWithPath: "\(assets.root)/song.mod"))
        assets.add("song", file: "song.mod", kind: "music")
        let system = try await assets.system()
        #expect(system.bank.isStreamed("song"))
        try system.music.play("song", at: 0)
        let mix = try system.engine.render(frames: Int(ModuleFixture.patternSeconds * 48_000 * 5))
        let tail = Array(mix.samples.suffix(48_000))
        #expect(AudioAnalysis.rms(PCMAudio(sampleRate: 48_000, channels: 2, samples: tail)) > 0.03)
    }
}
