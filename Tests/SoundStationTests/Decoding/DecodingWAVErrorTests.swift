import Testing

@testable import SoundStation

@Suite("WAV decoding of broken and unsupported files")
struct DecodingWAVErrorTests {
    private static let validFmt = WAVFixture.fmt(tag: 1, channels: 1, rate: 44_100, bits: 16)

    /// Decodes `bytes` and returns the error, failing the test if there was none.
    private func decodeError(_ bytes: [UInt8], name: String = "bad.wav") -> AudioDecodingError? {
        do {
            _ = try WAVDecoder.decode(bytes: bytes, name: name, options: DecodingOptions(strict: true))
            Issue.record("decoding \(name) should have failed")
            return nil
        } catch {
            #expect(error.description.contains(name))
            #expect(!error.description.contains("\n"))
            return error
        }
    }

    @Test("a data chunk shorter than declared is truncated and says how many bytes of how many")
    func truncatedData() throws {
        let full = WAVFixture.wav(
            DecodingTestSignal.ramp(count: 100), channels: 1, rate: 44_100, encoding: .int16)
        let error = decodeError(Array(full.prefix(full.count - 50)), name: "cut.wav")
        #expect(
            error
                == .truncated(
                    path: "cut.wav", reason: "the 'data' chunk declares 200 bytes but only 150 are present"))
        // Info (lenient) describes what is there: 16 of the 200 data bytes.
        #expect(try WAVDecoder.info(bytes: Array(full.prefix(60)), name: "x").frameCount == 8)
    }

    @Test("a file cut inside the RIFF header or fmt chunk is truncated")
    func truncatedHeaders() {
        guard case .truncated = decodeError(Array("RIFF\u{4}\0".utf8)) else {
            Issue.record("expected truncated")
            return
        }
        let cutFmt = Array(WAVFixture.riff([Self.validFmt]).prefix(30))
        guard case .truncated = decodeError(cutFmt) else {
            Issue.record("expected truncated")
            return
        }
    }

    @Test("zero bytes are unreadable")
    func zeroLength() {
        #expect(
            decodeError([], name: "empty.wav")
                == .unreadable(path: "empty.wav", reason: "the file is empty (0 bytes)"))
    }

    @Test("random bytes and wrong magic are unsupported")
    func wrongMagic() {
        var generator = SystemRandomNumberGenerator()
        let noise = (0..<1_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        guard case .unsupportedFormat = decodeError([0x00, 0x01] + noise) else {
            Issue.record("expected unsupportedFormat for noise")
            return
        }
        let avi = WAVFixture.riff([Self.validFmt], type: "AVI ")
        #expect(
            decodeError(avi)
                == .unsupportedFormat(path: "bad.wav", reason: "a RIFF file of type 'AVI ', not WAVE"))
        let rifx = Array("RIFX".utf8) + Array(avi.dropFirst(4))
        #expect(
            decodeError(rifx)
                == .unsupportedFormat(path: "bad.wav", reason: "a RIFX file of type 'AVI ', not WAVE"))
    }

    @Test("huge declared chunk sizes neither crash nor allocate")
    func hugeSizes() {
        let hugeData = WAVFixture.riff([
            Self.validFmt, WAVFixture.chunk("data", [1, 2, 3, 4], declaredSize: .max),
        ])
        guard case .truncated(_, let reason) = decodeError(hugeData) else {
            Issue.record("expected truncated")
            return
        }
        #expect(reason.contains("4294967295"))
        // An unknown chunk claiming 4 GB hides everything after it, including the data.
        let hugeJunk = WAVFixture.riff([
            Self.validFmt, WAVFixture.chunk("junk", [0], declaredSize: 0xFFFF_FFF0),
            WAVFixture.chunk("data", [0, 0]),
        ])
        #expect(
            decodeError(hugeJunk)
                == .corrupt(path: "bad.wav", reason: "there is no 'data' chunk holding samples"))
        let hugeFmt = WAVFixture.riff([WAVFixture.chunk("fmt ", [1, 0], declaredSize: 0xFFFF_FFFE)])
        guard case .truncated = decodeError(hugeFmt) else {
            Issue.record("expected truncated")
            return
        }
    }

    @Test("a missing fmt or data chunk is corrupt")
    func missingChunks() {
        let noFmt = WAVFixture.riff([WAVFixture.chunk("data", [0, 0])])
        #expect(
            decodeError(noFmt)
                == .corrupt(
                    path: "bad.wav", reason: "there is no 'fmt ' chunk, so the sample format is unknown"))
        guard case .corrupt = decodeError(WAVFixture.riff([Self.validFmt])) else {
            Issue.record("expected corrupt")
            return
        }
        guard
            case .corrupt = decodeError(
                WAVFixture.riff([WAVFixture.chunk("fmt ", [1, 0, 1, 0]), WAVFixture.chunk("data", [])]))
        else {
            Issue.record("expected corrupt for a short fmt chunk")
            return
        }
    }

    @Test("broken compressed encodings (decoded by libsndfile) are named with their format tag")
    func compressedEncodings() {
        let adpcm = WAVFixture.riff([
            WAVFixture.fmt(tag: 2, channels: 1, rate: 22_050, bits: 4), WAVFixture.chunk("data", [0]),
        ])
        #expect(decodeError(adpcm)?.description.contains("MS ADPCM (format tag 2)") == true)
        let mp3 = WAVFixture.riff([
            WAVFixture.fmt(tag: 0x55, channels: 2, rate: 44_100, bits: 0), WAVFixture.chunk("data", [0]),
        ])
        #expect(decodeError(mp3)?.description.contains("MP3 (format tag 85)") == true)
        let pcm12 = WAVFixture.riff([
            WAVFixture.fmt(tag: 1, channels: 1, rate: 44_100, bits: 12), WAVFixture.chunk("data", [0, 0]),
        ])
        // Packed 12-bit PCM goes to libsndfile: it decodes, or the error names the width.
        do {
            let audio = try WAVDecoder.decode(bytes: pcm12, name: "p12.wav")
            #expect(audio.samples.allSatisfy { $0.isFinite && abs($0) <= 1 })
        } catch {
            #expect(error.description.contains("12-bit"))
        }
        let unknown = WAVFixture.riff([
            WAVFixture.fmt(tag: 0x2000, channels: 2, rate: 44_100, bits: 16), WAVFixture.chunk("data", [0]),
        ])
        #expect(decodeError(unknown) == .unsupportedFormat(path: "bad.wav", reason: "AC-3 (format tag 8192)"))
        let oddGUID = WAVFixture.riff([
            WAVFixture.extensibleFmt(
                subFormat: 1, channels: 2, rate: 44_100, bits: 16, guidTail: Array(repeating: 7, count: 14)),
            WAVFixture.chunk("data", [0, 0, 0, 0]),
        ])
        guard case .unsupportedFormat = decodeError(oddGUID) else {
            Issue.record("expected unsupportedFormat for an unknown GUID")
            return
        }
    }

    @Test("more than 64 channels are unsupported and the count is named")
    func tooManyChannels() throws {
        let surround = WAVFixture.riff([
            WAVFixture.fmt(tag: 1, channels: 6, rate: 48_000, bits: 16),
            WAVFixture.chunk("data", [UInt8](repeating: 0, count: 12)),
        ])
        let mixed = try WAVDecoder.decode(bytes: surround, name: "six.wav")
        #expect(mixed.channels == 2 && mixed.frameCount == 1)
        let many = WAVFixture.riff([
            WAVFixture.fmt(tag: 1, channels: 65, rate: 48_000, bits: 16),
            WAVFixture.chunk("data", [UInt8](repeating: 0, count: 130)),
        ])
        guard case .unsupportedFormat(_, let reason) = decodeError(many) else {
            Issue.record("expected unsupportedFormat")
            return
        }
        #expect(reason.contains("65 channels"))
    }

    @Test("a sample rate of zero is corrupt and an absurd one unsupported")
    func badRates() {
        let zero = WAVFixture.riff([
            WAVFixture.fmt(tag: 1, channels: 1, rate: 0, bits: 16), WAVFixture.chunk("data", [0, 0]),
        ])
        guard case .corrupt = decodeError(zero) else {
            Issue.record("expected corrupt")
            return
        }
        let absurd = WAVFixture.riff([
            WAVFixture.fmt(tag: 1, channels: 1, rate: 4_000_000_000, bits: 16),
            WAVFixture.chunk("data", [0, 0]),
        ])
        guard case .unsupportedFormat = decodeError(absurd) else {
            Issue.record("expected unsupportedFormat")
            return
        }
        let noChannels = WAVFixture.riff([
            WAVFixture.fmt(tag: 1, channels: 0, rate: 44_100, bits: 16), WAVFixture.chunk("data", [0, 0]),
        ])
        guard case .corrupt = decodeError(noChannels) else {
            Issue.record("expected corrupt")
            return
        }
    }

    @Test("every prefix of a valid file fails cleanly or decodes")
    func everyPrefix() {
        let full = WAVFixture.riff([
            WAVFixture.chunk("LIST", [1, 2, 3]), Self.validFmt,
            WAVFixture.chunk("data", WAVFixture.sampleBytes([0.5, -0.5], .int16)),
        ])
        for length in 0..<full.count {
            #expect(throws: AudioDecodingError.self) {
                try WAVDecoder.decode(
                    bytes: Array(full.prefix(length)), name: "p.wav", options: DecodingOptions(strict: true))
            }
        }
        #expect(throws: Never.self) { try WAVDecoder.decode(bytes: full, name: "p.wav") }
    }
}
