import Foundation
import SoundStationTesting
import Testing

@testable import SoundStation

/// Tracker modules through libxmp: checked against the xmp player's own rendering, and for the
/// song's structure (its loop is the second pattern only, by a jump at its end).
@Suite struct ModuleDecodingTests {
    private static let patternFrames = Int(ModuleFixture.patternSeconds * 48_000)

    static let modules: [(AudioFileFormat, [UInt8])] = [
        (.mod, ModuleFixture.mod()), (.s3m, ModuleFixture.s3m()), (.xm, ModuleFixture.xm()),
        (.it, ModuleFixture.it()),
    ]

    @Test(
        "MOD, S3M, XM and IT are found by their magic and render one pass of their song at 48 kHz stereo",
        arguments: modules)
    func onePass(format: AudioFileFormat, module: [UInt8]) throws {
        #expect(try AudioDecoder.detect(module, name: "song.bin") == format)
        let audio = try AudioDecoder.decode(bytes: module, name: "song.bin")
        #expect(audio.sampleRate == 48_000 && audio.channels == 2)
        #expect(abs(audio.frameCount - 2 * Self.patternFrames) <= 960, "\(audio.frameCount) frames")
        // First pattern C-2, second C-3: the second has twice the zero crossings.
        let first = DecodingTestSignal.channel(
            0, of: Array(audio.samples[0..<Self.patternFrames * 2]), channels: 2)
        let second = DecodingTestSignal.channel(
            0, of: Array(audio.samples[Self.patternFrames * 2..<Self.patternFrames * 4]), channels: 2)
        let ratio =
            Double(DecodingTestSignal.zeroCrossings(second)) / Double(DecodingTestSignal.zeroCrossings(first))
        #expect(abs(ratio - 2) < 0.1, "crossings ratio \(ratio)")
        #expect(AudioAnalysis.rms(first) > 0.05)
    }

    @Test(
        "it matches the xmp player's own rendering within one LSB", .enabled(if: FormatTools.have("xmp")),
        arguments: modules)
    func matchesXmp(format: AudioFileFormat, module: [UInt8]) throws {
        let directory = try DecodingTestDirectory()
        defer { directory.remove() }
        let path = try directory.write(module, to: "song.\(format.rawValue)")
        let reference = FormatTools.int16s(
            try FormatTools.run(
                "xmp", ["--norc", "--nocmd", "-q", "-f", "48000", "-i", "spline", "-P", "70", "-c", path]))
        let ours = try AudioDecoder.decode(fileAt: path)
        #expect(ours.samples.count == reference.count, "\(ours.samples.count) vs xmp \(reference.count)")
        let common = min(ours.samples.count, reference.count)
        #expect(largestDifference(Array(ours.samples[..<common]), Array(reference[..<common])) <= oneLSB16)
        #expect(try AudioDecoder.info(ofFileAt: path).format == format)
    }

    @Test("a streamed module loops by its song structure: the second pattern repeats, not the first")
    func loopsBySong() throws {
        let directory = try DecodingTestDirectory()
        defer { directory.remove() }
        let path = try directory.write(ModuleFixture.mod(), to: "song.mod")
        let decoder = try AudioDecoder.openStream(fileAt: path, options: DecodingOptions(loopModules: true))
        #expect(decoder.info.frameCount == ModuleDecoder.endlessFrameCount)
        var samples: [Float] = []
        while samples.count < Self.patternFrames * 2 * 5 { samples += try decoder.read(maxFrames: 4_096) }
        func crossings(_ pattern: Int) -> Int {
            let start = (pattern * Self.patternFrames + 2_400) * 2
            let end = ((pattern + 1) * Self.patternFrames - 2_400) * 2
            return DecodingTestSignal.zeroCrossings(
                DecodingTestSignal.channel(0, of: Array(samples[start..<end]), channels: 2))
        }
        let low = crossings(0)
        for pattern in 1...4 {
            #expect(
                abs(Double(crossings(pattern)) / Double(low) - 2) < 0.1, "pattern \(pattern) plays the loop")
        }
        // Seeking renders again from the start, so it lands on the same samples.
        try decoder.seek(toFrame: 30_000)
        let again = try decoder.read(maxFrames: 1_000)
        #expect(again == Array(samples[60_000..<62_000]))
    }

    @Test("broken modules are errors naming the file")
    func broken() throws {
        let module = ModuleFixture.mod()
        for cut in [1_084, 1_500, 2_000] {
            do {
                _ = try AudioDecoder.decode(bytes: Array(module.prefix(cut)), name: "cut\(cut).mod")
            } catch {
                #expect(error.description.contains("cut\(cut).mod"))
            }
        }
        var garbage = module
        for index in stride(from: 950, to: 1_080, by: 3) { garbage[index] = 0xFF }
        do {
            let audio = try AudioDecoder.decode(bytes: garbage, name: "garbage.mod")
            #expect(audio.samples.allSatisfy { $0.isFinite && abs($0) <= 1 })
        } catch {
            #expect(error.description.contains("garbage.mod"))
        }
    }
}
