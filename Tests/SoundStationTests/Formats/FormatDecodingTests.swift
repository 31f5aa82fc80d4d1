import Foundation
import SoundStationTesting
import Testing

@testable import SoundStation

/// Every format decoded by SoundStation against an independent decoder (sox's own readers, the
/// codec's own command-line tool, xmp) on files the tests make, within one 16-bit LSB.
@Suite(.enabled(if: FormatTools.have("sox")))
struct FormatDecodingTests {
    /// Makes a file with sox from a two-tone synth; `format` are sox's output options.
    private func soxFile(
        _ directory: DecodingTestDirectory, _ name: String, rate: Int, channels: Int, _ format: [String]
    )
        throws -> String
    {
        let path = directory.path(name)
        var tones = ["sine", "440"]
        for channel in 1..<channels { tones += ["sine", "\(440 + 220 * channel)"] }
        try FormatTools.run(
            "sox",
            ["-n", "-r", "\(rate)", "-c", "\(channels)"] + format + [path, "synth", "0.3"] + tones + [
                "vol", "0.8",
            ])
        return path
    }

    /// Decodes with SoundStation and with sox's own reader and expects the same frames within one LSB.
    private func expectMatchesSox(
        _ path: String, format: AudioFileFormat, encoding: String?, channels: Int, rate: Int
    ) throws {
        let ours = try AudioDecoder.decode(fileAt: path, options: DecodingOptions(strict: true))
        let info = try AudioDecoder.info(ofFileAt: path)
        #expect(info.format == format)
        #expect(info.encoding == encoding, "\(path): \(info.encoding ?? "nil")")
        #expect(ours.channels == channels && ours.sampleRate == rate)
        let reference = try FormatTools.soxDecode(path)
        #expect(
            ours.samples.count == reference.count, "\(path): \(ours.samples.count) vs sox \(reference.count)")
        #expect(largestDifference(ours.samples, reference) <= oneLSB16, "\(path)")
        #expect(AudioAnalysis.rms(ours.samples) > 0.3)
    }

    @Test("WAV mu-law, A-law, IMA and MS ADPCM, RIFX, 8 to 64 bits and AIFF match sox's own readers")
    func wavVariantsMatchSox() throws {
        let directory = try DecodingTestDirectory()
        defer { directory.remove() }
        let cases: [(String, Int, Int, [String], AudioFileFormat, String?)] = [
            ("mulaw.wav", 8_000, 1, ["-e", "mu-law"], .wav, "mu-law"),
            ("alaw.wav", 8_000, 2, ["-e", "a-law"], .wav, "A-law"),
            ("ima.wav", 22_050, 1, ["-e", "ima-adpcm"], .wav, "IMA ADPCM"),
            ("ima-stereo.wav", 22_050, 2, ["-e", "ima-adpcm"], .wav, "IMA ADPCM"),
            ("ms.wav", 22_050, 2, ["-e", "ms-adpcm"], .wav, "MS ADPCM"),
            ("rifx16.wav", 44_100, 2, ["-b", "16", "-B"], .wav, "RIFX PCM 16-bit"),
            ("rifx24.wav", 48_000, 1, ["-b", "24", "-B"], .wav, "RIFX PCM 24-bit"),
            ("u8.wav", 11_025, 1, ["-b", "8", "-e", "unsigned"], .wav, "PCM 8-bit"),
            ("s32.wav", 48_000, 2, ["-b", "32", "-e", "signed"], .wav, "PCM 32-bit"),
            ("f64.wav", 48_000, 2, ["-b", "64", "-e", "floating-point"], .wav, "float 64-bit"),
            ("a.aiff", 44_100, 2, ["-b", "16"], .aiff, "PCM 16-bit"),
        ]
        for (name, rate, channels, format, expected, encoding) in cases {
            let path = try soxFile(directory, name, rate: rate, channels: channels, format)
            try expectMatchesSox(path, format: expected, encoding: encoding, channels: channels, rate: rate)
        }
    }

    @Test("FLAC matches the flac tool's own decoding and sox", .enabled(if: FormatTools.have("flac")))
    func flacMatchesFlacTool() throws {
        let directory = try DecodingTestDirectory()
        defer { directory.remove() }
        for bits in [16, 24] {
            let path = try soxFile(directory, "a\(bits).flac", rate: 44_100, channels: 2, ["-b", "\(bits)"])
            try expectMatchesSox(path, format: .flac, encoding: "PCM \(bits)-bit", channels: 2, rate: 44_100)
            let raw = directory.path("a\(bits).raw")
            try FormatTools.run(
                "flac",
                ["-d", "-s", "-f", "--force-raw-format", "--endian=little", "--sign=signed", "-o", raw, path])
            let bytes = try directory.read(raw)
            let width = bits / 8
            let reference = (0..<bytes.count / width).map { index -> Float in
                var value = 0
                for byte in 0..<width { value |= Int(bytes[index * width + byte]) << (8 * byte) }
                if value >= 1 << (bits - 1) { value -= 1 << bits }
                return Float(value) / Float(1 << (bits - 1))
            }
            let ours = try AudioDecoder.decode(fileAt: path)
            #expect(largestDifference(ours.samples, reference) <= 1.0 / Float(1 << (bits - 1)) + 1e-7)
        }
    }

    @Test("Ogg Opus matches opusdec", .enabled(if: FormatTools.have("opusenc", "opusdec")))
    func opusMatchesOpusdec() throws {
        let directory = try DecodingTestDirectory()
        defer { directory.remove() }
        let source = try soxFile(directory, "src.wav", rate: 48_000, channels: 2, ["-b", "16"])
        let path = directory.path("a.opus")
        try FormatTools.run("opusenc", ["--quiet", source, path])
        let decoded = directory.path("opusdec.wav")
        try FormatTools.run("opusdec", ["--quiet", "--float", "--rate", "48000", path, decoded])
        let reference = try AudioDecoder.decode(fileAt: decoded)  // a float WAV: the Swift reader
        let ours = try AudioDecoder.decode(fileAt: path, options: DecodingOptions(strict: true))
        #expect(try AudioDecoder.info(ofFileAt: path).format == .oggOpus)
        #expect(ours.sampleRate == 48_000 && ours.channels == 2)
        #expect(ours.frameCount == reference.frameCount)
        #expect(largestDifference(ours.samples, reference.samples) <= oneLSB16)
        #expect(abs(ours.frameCount - 14_400) < 10, "0.3 s, without the encoder's pre-skip")
    }

    @Test("MP3 matches mpg123", .enabled(if: FormatTools.have("lame", "mpg123")))
    func mp3MatchesMpg123() throws {
        let directory = try DecodingTestDirectory()
        defer { directory.remove() }
        let source = try soxFile(directory, "src.wav", rate: 44_100, channels: 2, ["-b", "16"])
        let path = directory.path("a.mp3")
        try FormatTools.run("lame", ["--quiet", "-b", "192", source, path])
        let reference = FormatTools.floats(try FormatTools.run("mpg123", ["-q", "-e", "f32", "-s", path]))
        let ours = try AudioDecoder.decode(fileAt: path, options: DecodingOptions(strict: true))
        #expect(try AudioDecoder.info(ofFileAt: path).format == .mp3)
        #expect(ours.sampleRate == 44_100 && ours.channels == 2)
        #expect(ours.samples.count == reference.count, "\(ours.samples.count) vs mpg123 \(reference.count)")
        #expect(largestDifference(ours.samples, reference) <= oneLSB16)
        #expect(AudioAnalysis.rms(ours.samples) > 0.3)
    }

    @Test("an MP3 behind an ID3v2 tag is still found by its contents")
    func mp3AfterID3Tag() throws {
        guard FormatTools.have("lame") else { return }
        let directory = try DecodingTestDirectory()
        defer { directory.remove() }
        let source = try soxFile(directory, "src.wav", rate: 44_100, channels: 1, ["-b", "16"])
        let path = directory.path("tagged.wav")  // the name lies; the contents decide
        try FormatTools.run("lame", ["--quiet", "--add-id3v2", "--tt", "title", source, path])
        #expect(try directory.read(path).starts(with: Array("ID3".utf8)))
        #expect(try AudioDecoder.format(ofFileAt: path) == .mp3)
        #expect(try AudioDecoder.decode(fileAt: path).frameCount > 10_000)
    }

    @Test("RF64 and BW64 decode to exactly the samples written")
    func rf64() throws {
        let values: [Int16] = (0..<2_000).map { Int16(truncatingIfNeeded: ($0 * 7919) % 65_536 - 32_768) }
        for magic in ["RF64", "BW64"] {
            let bytes = Self.rf64(values, channels: 2, magic: magic)
            let audio = try AudioDecoder.decode(
                bytes: bytes, name: "big.\(magic)", options: DecodingOptions(strict: true))
            #expect(audio.channels == 2 && audio.frameCount == 1_000)
            #expect(audio.samples == values.map { Float($0) / 32_768 })
        }
    }

    @Test("20 valid bits in a 24-bit extensible container decode exactly")
    func extensibleValidBits() throws {
        let values: [Int32] = (0..<1_000).map { Int32(($0 * 2_654_435) % (1 << 20) - (1 << 19)) }
        var data: [UInt8] = []
        for value in values {
            let shifted = value << 4  // left-justified in 24 bits
            data += (0..<3).map { UInt8(truncatingIfNeeded: shifted >> (8 * $0)) }
        }
        let fmt =
            WAVFixture.le16(0xFFFE) + WAVFixture.le16(1) + WAVFixture.le32(48_000) + WAVFixture.le32(144_000)
            + WAVFixture.le16(3) + WAVFixture.le16(24) + WAVFixture.le16(22) + WAVFixture.le16(20)
            + WAVFixture.le32(4) + WAVFixture.le16(1)
            + [0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71]
        let bytes = WAVFixture.riff([WAVFixture.chunk("fmt ", fmt), WAVFixture.chunk("data", data)])
        let audio = try AudioDecoder.decode(bytes: bytes, name: "valid20.wav")
        #expect(audio.samples == values.map { Float($0) / Float(1 << 19) })
    }

    /// An RF64 (or BW64) file: sizes of 0xFFFFFFFF and the real ones in `ds64`.
    static func rf64(_ values: [Int16], channels: Int, magic: String = "RF64", declaredData: UInt64? = nil)
        -> [UInt8]
    {
        let data = values.flatMap { WAVFixture.le16(Int($0)) }
        func le64(_ value: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        let ds64 = WAVFixture.chunk(
            "ds64",
            le64(UInt64(data.count + 72)) + le64(declaredData ?? UInt64(data.count))
                + le64(UInt64(values.count / channels)) + WAVFixture.le32(0))
        let fmt = WAVFixture.fmt(tag: 1, channels: channels, rate: 48_000, bits: 16)
        return Array(magic.utf8) + WAVFixture.le32(0xFFFF_FFFF) + Array("WAVE".utf8) + ds64 + fmt
            + WAVFixture.chunk("data", data, declaredSize: 0xFFFF_FFFF)
    }
}
