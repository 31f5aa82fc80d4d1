import Foundation
import Testing

@testable import SoundStation

/// Files of more than two channels: mixed to stereo with the ITU coefficients (centre and surrounds
/// at -3 dB, LFE dropped), or cut to the first two when the catalogue asks.
@Suite(.enabled(if: FormatTools.have("sox")))
struct ChannelDownmixTests {
    /// A 5.1 file (L R C LFE Ls Rs, the WAV order) of six different tones, made by sox.
    private func surround(_ directory: DecodingTestDirectory, _ name: String) throws -> (String, [Float]) {
        let path = directory.path(name)
        try FormatTools.run(
            "sox",
            [
                "-n", "-r", "48000", "-c", "6", "-b", "16", path, "synth", "0.25", "sine", "300", "sine",
                "500", "sine",
                "700", "sine", "50", "sine", "1100", "sine", "1300", "vol", "0.3",
            ])
        return (path, try FormatTools.soxDecode(path))
    }

    @Test("5.1 WAV and FLAC mix down as L + 0.707 C + 0.707 Ls, R + 0.707 C + 0.707 Rs, no LFE")
    func ituDownmix() throws {
        let directory = try DecodingTestDirectory()
        defer { directory.remove() }
        let (wav, channels) = try surround(directory, "six.wav")
        let flac = directory.path("six.flac")
        try FormatTools.run("sox", [wav, flac])
        let g: Float = 0.707_106_77
        var expected: [Float] = []
        for frame in 0..<channels.count / 6 {
            let c = Array(channels[frame * 6..<frame * 6 + 6])
            expected += [c[0] + g * c[2] + g * c[4], c[1] + g * c[2] + g * c[5]]
        }
        for path in [wav, flac] {
            let info = try AudioDecoder.info(ofFileAt: path)
            #expect(info.channels == 2 && info.fileChannels == 6)
            #expect(info.formatDescription.hasSuffix("6 ch"))
            let audio = try AudioDecoder.decode(fileAt: path)
            #expect(audio.channels == 2)
            #expect(largestDifference(audio.samples, expected) < 1e-5, "\(path)")
            // The LFE's 50 Hz is absent: correlate the left output with it.
            let lfe = stride(from: 3, to: channels.count, by: 6).map { channels[$0] }
            let left = DecodingTestSignal.channel(0, of: audio.samples, channels: 2)
            let correlation = zip(lfe, left).reduce(0) { $0 + Double($1.0 * $1.1) } / Double(lfe.count)
            #expect(abs(correlation) < 1e-4)
        }
    }

    @Test("5.1 Ogg Vorbis mixes down from Vorbis's channel order, read whole, in pieces or to the end")
    func vorbisDownmix() throws {
        let directory = try DecodingTestDirectory()
        defer { directory.remove() }
        let (wav, _) = try surround(directory, "six.wav")
        let ogg = directory.path("six.ogg")
        try FormatTools.run("sox", [wav, ogg])
        // sox decodes the six channels in the file's order, Vorbis's (L C R Ls Rs LFE), to 16 bits.
        let file = try FormatTools.soxDecode(ogg)
        let mixer = ChannelMixer(roles: ChannelRole.vorbisOrder(channels: 6), selection: .downmix)
        let expected = mixer.mix(file)
        let whole = try VorbisFileDecoder(path: ogg).readAll()
        #expect(whole.channels == 2 && whole.frameCount == 12_000)
        // Three channels of 16-bit rounding at most add up in one output sample.
        #expect(largestDifference(whole.samples, expected) < 3 * oneLSB16)
        let decoder = try VorbisFileDecoder(path: ogg)
        var pieces: [Float] = []
        while case let piece = try decoder.read(maxFrames: 1_000), !piece.isEmpty { pieces += piece }
        #expect(pieces == whole.samples)
        #expect(try VorbisFileDecoder(path: ogg).read(maxFrames: .max) == whole.samples)
    }

    @Test("channels: first-two keeps the front pair as it is")
    func firstTwo() throws {
        let directory = try DecodingTestDirectory()
        defer { directory.remove() }
        let (wav, channels) = try surround(directory, "six.wav")
        let audio = try AudioDecoder.decode(fileAt: wav, options: DecodingOptions(channels: .firstTwo))
        let expected = (0..<channels.count / 6).flatMap { [channels[$0 * 6], channels[$0 * 6 + 1]] }
        #expect(audio.samples == expected)
    }

    @Test("the catalogue's channels key reaches the bank")
    func catalogueKey() async throws {
        let assets = try TestAssets()
        let directory = try DecodingTestDirectory()
        defer { directory.remove() }
        let (wav, channels) = try surround(directory, "six.wav")
        try FileManager.default.copyItem(atPath: wav, toPath: "\(assets.root)/six.wav")
        assets.add("mixed", file: "six.wav", kind: "effect")
        assets.add("front", file: "six.wav", kind: "effect", extra: "\"channels\": \"first-two\"")
        let system = try await assets.system()
        let front = try #require(system.bank.buffer(named: "front"))
        let mixed = try #require(system.bank.buffer(named: "mixed"))
        #expect(front.channels == 2 && mixed.channels == 2)
        #expect(try system.catalogue.entry(named: "front").channels == .firstTwo)
        #expect(try system.catalogue.entry(named: "mixed").channels == .downmix)
        #expect(channels.count == 6 * 12_000)
    }
}
