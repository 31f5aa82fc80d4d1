import Foundation
import Synchronization
import Testing

@testable import SoundStation

/// Truncated, corrupt and lying files in every format: a warning and what is there, or an error
/// naming the file; never a crash, a hang or a huge allocation.
@Suite(.enabled(if: FormatTools.have("sox", "flac", "opusenc", "lame", "oggenc")))
struct BadFormatFileTests {
    /// One good file per decoder path, made by the tools.
    private func goodFiles(_ directory: DecodingTestDirectory) throws -> [String] {
        var paths: [String] = []
        for (name, options) in [
            ("pcm.wav", ["-b", "16"]), ("mulaw.wav", ["-e", "mu-law"]), ("ima.wav", ["-e", "ima-adpcm"]),
            ("rifx.wav", ["-b", "16", "-B"]), ("a.flac", ["-b", "16"]), ("a.aiff", ["-b", "16"]),
        ] {
            let path = directory.path(name)
            try FormatTools.run(
                "sox", ["-n", "-r", "22050", "-c", "2"] + options + [path, "synth", "3", "sine", "440"])
            paths.append(path)
        }
        // Noise under the tone fills the lossy encoders' pages, so a cut leaves many whole ones.
        let source = directory.path("noisy.wav")
        try FormatTools.run(
            "sox",
            [
                "-n", "-r", "22050", "-c", "2", "-b", "16", source, "synth", "3", "sine", "440", "whitenoise",
                "vol", "0.5",
            ])
        try FormatTools.run("opusenc", ["--quiet", source, directory.path("a.opus")])
        try FormatTools.run("lame", ["--quiet", source, directory.path("a.mp3")])
        try FormatTools.run("oggenc", ["--quiet", "-o", directory.path("a.ogg"), source])
        _ = try directory.write(ModuleFixture.mod(), to: "a.mod")
        let rf64: [Int16] = (0..<44_100).map { Int16(truncatingIfNeeded: $0 * 37) }
        _ = try directory.write(FormatDecodingTests.rf64(rf64, channels: 2), to: "a.rf64")
        return paths + ["a.opus", "a.mp3", "a.ogg", "a.rf64"].map(directory.path)
    }

    @Test("a file cut short loads what is there with one warning naming it; strict makes it an error")
    func truncated() throws {
        let directory = try DecodingTestDirectory()
        defer { directory.remove() }
        for path in try goodFiles(directory) {
            let bytes = try directory.read(path)
            let whole = try AudioDecoder.decode(fileAt: path, options: DecodingOptions(strict: true))
            let cutPath = path + ".cut"
            try Data(bytes.prefix(bytes.count * 6 / 10)).write(to: URL(fileURLWithPath: cutPath))
            let warnings = Mutex<[AudioDecodingWarning]>([])
            let lenient = DecodingOptions(warn: { warning in warnings.withLock { $0.append(warning) } })
            let partial = try AudioDecoder.decode(fileAt: cutPath, options: lenient)
            #expect(
                partial.frameCount < whole.frameCount && partial.frameCount > whole.frameCount / 4, "\(path)")
            // What is there is what the whole file holds at the same place.
            let common = min(partial.samples.count, whole.samples.count) / 2
            #expect(
                largestDifference(Array(partial.samples[..<common]), Array(whole.samples[..<common])) < 0.02,
                "\(path)")
            let seen = warnings.withLock { $0 }
            #expect(seen.count == 1, "\(path): \(seen)")
            #expect(seen.first?.description.contains(cutPath) == true, "\(path)")
            #expect(seen.first?.description.contains("cut short") == true, "\(path)")
            do {
                _ = try AudioDecoder.decode(fileAt: cutPath, options: DecodingOptions(strict: true))
                Issue.record("\(cutPath): strict loading should fail")
            } catch {
                #expect(error.description.contains(cutPath))
            }
        }
    }

    @Test("every prefix of every format decodes or fails naming the file, never crashes")
    func everyPrefix() throws {
        let directory = try DecodingTestDirectory()
        defer { directory.remove() }
        let quiet = DecodingOptions(warn: { _ in })
        for path in try goodFiles(directory) + [directory.path("a.mod")] {
            let bytes = try directory.read(path)
            let step = max(1, bytes.count / 60)
            for length in stride(from: 0, to: bytes.count, by: step) + Array(0..<min(64, bytes.count)) {
                do {
                    let audio = try AudioDecoder.decode(
                        bytes: Array(bytes.prefix(length)), name: "prefix-\(length)", options: quiet)
                    #expect(audio.samples.allSatisfy { $0.isFinite && abs($0) <= 1 })
                } catch {
                    #expect(error.description.contains("prefix-\(length)"), "\(path): \(error)")
                }
            }
        }
    }

    @Test("corrupted bytes give an error naming the file or audio in range")
    func corrupted() throws {
        let directory = try DecodingTestDirectory()
        defer { directory.remove() }
        var state: UInt64 = 0x1234_5678
        for path in try goodFiles(directory) + [directory.path("a.mod")] {
            let bytes = try directory.read(path)
            for trial in 0..<12 {
                var damaged = bytes
                for _ in 0..<(1 + trial * 4) {
                    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                    // Half the damage lands in the first 256 bytes, where the headers are.
                    let span = trial % 2 == 0 ? min(256, bytes.count) : bytes.count
                    damaged[Int(state >> 33) % span] = UInt8(truncatingIfNeeded: state >> 17)
                }
                do {
                    let audio = try AudioDecoder.decode(
                        bytes: damaged, name: "damaged-\(trial)", options: DecodingOptions(warn: { _ in }))
                    #expect(audio.samples.allSatisfy { $0.isFinite && abs($0) <= 1 })
                    #expect(audio.channels >= 1 && audio.channels <= 2)
                } catch {
                    #expect(error.description.contains("damaged-\(trial)"))
                }
            }
        }
    }

    @Test("headers claiming gigabytes load what is there, at once")
    func lyingHeaders() throws {
        let values: [Int16] = (0..<4_000).map { Int16(truncatingIfNeeded: $0 * 31) }
        let clock = ContinuousClock()
        let start = clock.now
        let quiet = DecodingOptions(warn: { _ in })
        // RF64 whose ds64 says 2^62 bytes of data.
        let rf64 = FormatDecodingTests.rf64(values, channels: 1, declaredData: 1 << 62)
        let audio = try AudioDecoder.decode(bytes: rf64, name: "huge.rf64", options: quiet)
        #expect(audio.frameCount == 4_000)
        #expect(throws: AudioDecodingError.self) {
            try AudioDecoder.decode(bytes: rf64, name: "huge.rf64", options: DecodingOptions(strict: true))
        }
        // RIFF whose data chunk says 4 GB, in mu-law (libsndfile's path) and PCM (Swift's).
        for tag: UInt16 in [1, 7] {
            let bits = tag == 1 ? 16 : 8
            let fmt = WAVFixture.fmt(tag: tag, channels: 1, rate: 8_000, bits: bits)
            let wav = WAVFixture.riff([
                fmt,
                WAVFixture.chunk("data", [UInt8](repeating: 0x55, count: 8_000), declaredSize: 0xFFFF_FFF0),
            ])
            let decoded = try AudioDecoder.decode(bytes: wav, name: "huge-\(tag).wav", options: quiet)
            #expect(decoded.frameCount == 8_000 / (bits / 8))
        }
        // FLAC whose STREAMINFO says 2^35 frames.
        if FormatTools.have("sox") {
            let directory = try DecodingTestDirectory()
            defer { directory.remove() }
            let path = directory.path("a.flac")
            try FormatTools.run(
                "sox", ["-n", "-r", "8000", "-c", "1", "-b", "16", path, "synth", "0.5", "sine", "440"])
            var flac = try directory.read(path)
            // STREAMINFO starts at 8; total samples are the low 36 bits at bytes 21...25.
            flac[21] = (flac[21] & 0xF0) | 0x08
            let decoded = try AudioDecoder.decode(bytes: flac, name: "huge.flac", options: quiet)
            #expect(decoded.frameCount <= 4_000)
        }
        #expect(clock.now - start < .seconds(5))
    }

    @Test("the format comes from the contents, whatever the name says")
    func detectionIgnoresNames() throws {
        let directory = try DecodingTestDirectory()
        defer { directory.remove() }
        let expected: [String: AudioFileFormat] = [
            "pcm.wav": .wav, "mulaw.wav": .wav, "a.flac": .flac, "a.aiff": .aiff, "a.opus": .oggOpus,
            "a.mp3": .mp3, "a.mod": .mod, "a.rf64": .wav, "a.ogg": .oggVorbis,
        ]
        _ = try goodFiles(directory)
        for (name, format) in expected {
            let misnamed = directory.path("misnamed-\(name).ogg")
            try FileManager.default.copyItem(atPath: directory.path(name), toPath: misnamed)
            #expect(try AudioDecoder.format(ofFileAt: misnamed) == format, "\(name)")
        }
        #expect(throws: AudioDecodingError.self) {
            try AudioDecoder.decode(bytes: Array("just some text, not audio at all".utf8), name: "notes.wav")
        }
    }
}
