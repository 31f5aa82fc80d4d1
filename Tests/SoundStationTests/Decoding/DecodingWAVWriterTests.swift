import Testing

@testable import SoundStation

@Suite("WAV writing")
struct DecodingWAVWriterTests {
    private let sine = PCMAudio(
        sampleRate: 44_100, channels: 2,
        samples: DecodingTestSignal.sine(frequency: 440, rate: 44_100, frames: 1_000, channels: 2))

    @Test("int16 output decodes back within one quantisation step")
    func int16RoundTrip() throws {
        let bytes = WAVWriter.encode(sine, format: .int16)
        #expect(bytes.count == 44 + 4_000)
        let decoded = try WAVDecoder.decode(bytes: bytes, name: "rt16.wav")
        #expect(decoded.sampleRate == 44_100)
        #expect(decoded.channels == 2)
        #expect(DecodingTestSignal.maxDifference(decoded.samples, sine.samples) <= 1 / 32_768)
    }

    @Test("float32 output decodes back exactly")
    func float32RoundTrip() throws {
        let decoded = try WAVDecoder.decode(bytes: WAVWriter.encode(sine, format: .float32), name: "rtf.wav")
        #expect(decoded == sine)
    }

    @Test("int16 output clamps overs instead of wrapping")
    func int16Clamps() throws {
        let hot = PCMAudio(sampleRate: 8_000, channels: 1, samples: [1.5, -1.5, 1])
        let decoded = try WAVDecoder.decode(bytes: WAVWriter.encode(hot, format: .int16), name: "hot.wav")
        #expect(decoded.samples == [32_767 / 32_768, -1, 32_767 / 32_768])
    }

    @Test("the header matches the canonical layout sox expects")
    func canonicalHeader() {
        let bytes = WAVWriter.encode(
            PCMAudio(sampleRate: 48_000, channels: 1, samples: [0, 0]), format: .int16)
        #expect(Array(bytes[0..<4]) == Array("RIFF".utf8))
        #expect(bytes.littleEndianUInt32(at: 4) == UInt32(bytes.count - 8))
        #expect(Array(bytes[12..<16]) == Array("fmt ".utf8))
        #expect(bytes.littleEndianUInt32(at: 24) == 48_000)
        #expect(bytes.littleEndianUInt32(at: 28) == 96_000)
    }

    @Test("write puts a decodable file on disk and reports an impossible path")
    func writeToFile() throws {
        let directory = try DecodingTestDirectory()
        defer { directory.remove() }
        let path = directory.path("out.wav")
        try WAVWriter.write(sine, toFileAt: path, format: .float32)
        #expect(try AudioDecoder.decode(fileAt: path) == sine)

        let missing = directory.path("no/such/dir/out.wav")
        #expect(throws: AudioEncodingError.cannotCreate(path: missing, reason: "No such file or directory")) {
            try WAVWriter.write(sine, toFileAt: missing, format: .int16)
        }
    }

    @Test("a full disk is reported with the system's reason")
    func fullDisk() throws {
        #expect(throws: AudioEncodingError.writeFailed(path: "/dev/full", reason: "No space left on device"))
        {
            try WAVWriter.write(sine, toFileAt: "/dev/full", format: .int16)
        }
    }
}
