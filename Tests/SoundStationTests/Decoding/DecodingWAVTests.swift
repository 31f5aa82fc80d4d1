import Testing

@testable import SoundStation

@Suite("WAV decoding of valid files")
struct DecodingWAVTests {
    @Test(
        "every encoding, layout and rate decodes to the stored values",
        arguments: WAVFixture.Encoding.allCases, [(1, 22_050), (2, 44_100), (2, 48_000)])
    func decodesEveryEncoding(encoding: WAVFixture.Encoding, layout: (channels: Int, rate: Int)) throws {
        let values = DecodingTestSignal.sine(
            frequency: 440, rate: layout.rate, frames: 256, channels: layout.channels)
        let bytes = WAVFixture.wav(values, channels: layout.channels, rate: layout.rate, encoding: encoding)
        let audio = try WAVDecoder.decode(bytes: bytes, name: "sine.wav")
        #expect(audio.sampleRate == layout.rate)
        #expect(audio.channels == layout.channels)
        #expect(audio.frameCount == 256)
        #expect(DecodingTestSignal.maxDifference(audio.samples, values) <= encoding.tolerance)
    }

    @Test("a full-range ramp keeps its extremes in 8-bit unsigned and 24-bit signed")
    func rampExtremes() throws {
        let ramp = DecodingTestSignal.ramp(count: 512)
        for encoding in [WAVFixture.Encoding.unsigned8, .int24, .int32] {
            let bytes = WAVFixture.wav(ramp, channels: 1, rate: 8_000, encoding: encoding)
            let audio = try WAVDecoder.decode(bytes: bytes, name: "ramp.wav")
            #expect(audio.samples.first == -1)
            #expect(DecodingTestSignal.maxDifference(audio.samples, ramp) <= encoding.tolerance)
        }
    }

    @Test("the raw bytes of 16- and 8-bit samples map to the expected floats")
    func exactIntegerMapping() throws {
        let pcm16 = WAVFixture.riff([
            WAVFixture.fmt(tag: 1, channels: 1, rate: 44_100, bits: 16),
            WAVFixture.chunk("data", [0x00, 0x80, 0xFF, 0xFF, 0x00, 0x00, 0xFF, 0x7F]),
        ])
        #expect(
            try WAVDecoder.decode(bytes: pcm16, name: "a.wav").samples == [
                -1, -1 / 32_768, 0, 32_767 / 32_768,
            ])
        let pcm8 = WAVFixture.riff([
            WAVFixture.fmt(tag: 1, channels: 1, rate: 8_000, bits: 8),
            WAVFixture.chunk("data", [0, 128, 255]),
        ])
        #expect(try WAVDecoder.decode(bytes: pcm8, name: "b.wav").samples == [-1, 0, 127 / 128])
    }

    @Test(
        "WAVE_FORMAT_EXTENSIBLE with PCM and float sub-formats",
        arguments: [
            WAVFixture.Encoding.int16, .int24, .int32, .float32,
        ])
    func extensible(encoding: WAVFixture.Encoding) throws {
        let values = DecodingTestSignal.sine(frequency: 1_000, rate: 48_000, frames: 128, channels: 2)
        let bytes = WAVFixture.wav(values, channels: 2, rate: 48_000, encoding: encoding, extensible: true)
        let audio = try WAVDecoder.decode(bytes: bytes, name: "ext.wav")
        #expect(audio.channels == 2)
        #expect(DecodingTestSignal.maxDifference(audio.samples, values) <= encoding.tolerance)
    }

    @Test("a fmt chunk after the data chunk works")
    func fmtAfterData() throws {
        let values = DecodingTestSignal.ramp(count: 64)
        let bytes = WAVFixture.riff([
            WAVFixture.chunk("data", WAVFixture.sampleBytes(values, .int16)),
            WAVFixture.fmt(tag: 1, channels: 1, rate: 22_050, bits: 16),
        ])
        let audio = try WAVDecoder.decode(bytes: bytes, name: "late-fmt.wav")
        #expect(audio.sampleRate == 22_050)
        #expect(
            DecodingTestSignal.maxDifference(audio.samples, values) <= WAVFixture.Encoding.int16.tolerance)
        #expect(try WAVDecoder.info(bytes: bytes, name: "late-fmt.wav").frameCount == 64)
    }

    @Test("unknown chunks, including odd-sized ones with a pad byte, are skipped")
    func unknownChunksSkipped() throws {
        let values = DecodingTestSignal.ramp(count: 33)
        let bytes = WAVFixture.riff([
            WAVFixture.chunk("LIST", Array("INFOISFT\u{5}\0\0\0abcd\0".utf8)),
            WAVFixture.chunk("junk", [1, 2, 3]),  // odd: followed by a pad byte
            WAVFixture.fmt(tag: 1, channels: 1, rate: 44_100, bits: 8),
            WAVFixture.chunk("cue ", [9]),
            WAVFixture.chunk("data", WAVFixture.sampleBytes(values, .unsigned8)),  // 33 bytes: padded too
            WAVFixture.chunk("smpl", [7, 7, 7]),
        ])
        let audio = try WAVDecoder.decode(bytes: bytes, name: "chunky.wav")
        #expect(audio.frameCount == 33)
        #expect(
            DecodingTestSignal.maxDifference(audio.samples, values) <= WAVFixture.Encoding.unsigned8.tolerance
        )
    }

    @Test("a trailing partial frame is dropped and a missing final pad byte is tolerated")
    func partialFrame() throws {
        let bytes = WAVFixture.riff([
            WAVFixture.fmt(tag: 1, channels: 2, rate: 44_100, bits: 16),
            WAVFixture.chunk("data", [0, 0, 0, 0, 0, 0x40, 0xFF]),
        ]).dropLast()  // the pad byte after the odd data chunk
        let audio = try WAVDecoder.decode(bytes: Array(bytes), name: "odd.wav")
        #expect(audio.frameCount == 1)
        #expect(audio.samples == [0, 0])
    }

    @Test("float samples outside -1...1 are clamped and NaN becomes silence")
    func floatSanitised() throws {
        let bytes = WAVFixture.wav([2, -3, .nan, 0.25], channels: 1, rate: 44_100, encoding: .float32)
        #expect(try WAVDecoder.decode(bytes: bytes, name: "hot.wav").samples == [1, -1, 0, 0.25])
    }

    @Test("info reads the header facts without decoding")
    func info() throws {
        let values = DecodingTestSignal.sine(frequency: 440, rate: 48_000, frames: 4_800, channels: 2)
        let bytes = WAVFixture.wav(values, channels: 2, rate: 48_000, encoding: .int24)
        let info = try WAVDecoder.info(bytes: bytes, name: "info.wav")
        #expect(
            info
                == AudioFileInfo(
                    format: .wav, sampleRate: 48_000, channels: 2, frameCount: 4_800, encoding: "PCM 24-bit"))
        #expect(info.duration.inSeconds == 0.1)
    }
}
