import Testing

@testable import SoundStation

@Suite("Format detection and file access")
struct DecodingAudioDecoderTests {
    @Test("the format comes from the magic bytes, not the extension")
    func magicNotExtension() throws {
        let directory = try DecodingTestDirectory()
        defer { directory.remove() }
        let values = DecodingTestSignal.ramp(count: 100)
        let wavNamedOgg = try directory.write(
            WAVFixture.wav(values, channels: 1, rate: 22_050, encoding: .int16), to: "actually-wav.ogg")
        let info = try AudioDecoder.info(ofFileAt: wavNamedOgg)
        #expect(
            info
                == AudioFileInfo(
                    format: .wav, sampleRate: 22_050, channels: 1, frameCount: 100, encoding: "PCM 16-bit"))
        #expect(try AudioDecoder.decode(fileAt: wavNamedOgg).frameCount == 100)

        let oggPath = directory.path("tone.ogg")
        let encoder = try VorbisEncoder(path: oggPath, sampleRate: 22_050, channels: 1, quality: 0.2)
        try encoder.write(DecodingTestSignal.sine(frequency: 440, rate: 22_050, frames: 2_205))
        try encoder.finish()
        let oggNamedWav = try directory.write(try directory.read(oggPath), to: "actually-ogg.wav")
        #expect(try AudioDecoder.info(ofFileAt: oggNamedWav).format == .oggVorbis)
        #expect(try AudioDecoder.decode(fileAt: oggNamedWav).frameCount == 2_205)
        #expect(
            try AudioDecoder.decode(bytes: try directory.read(oggPath), name: "mem.ogg").frameCount == 2_205)
    }

    @Test("info of a WAV file reads only headers, even with fmt after a large data chunk")
    func wavInfoFromFile() throws {
        let directory = try DecodingTestDirectory()
        defer { directory.remove() }
        let bytes = WAVFixture.riff([
            WAVFixture.chunk("data", [UInt8](repeating: 0, count: 96_000)),
            WAVFixture.fmt(tag: 3, channels: 2, rate: 48_000, bits: 32),
        ])
        let path = try directory.write(bytes, to: "late.wav")
        let info = try AudioDecoder.info(ofFileAt: path)
        #expect(
            info
                == AudioFileInfo(
                    format: .wav, sampleRate: 48_000, channels: 2, frameCount: 12_000,
                    encoding: "float 32-bit"))
        #expect(info.duration.inSeconds == 0.25)
    }

    @Test("missing files, directories and empty files are unreadable")
    func unreadable() throws {
        let directory = try DecodingTestDirectory()
        defer { directory.remove() }
        let missing = directory.path("missing.wav")
        #expect(throws: AudioDecodingError.unreadable(path: missing, reason: "No such file or directory")) {
            try AudioDecoder.decode(fileAt: missing)
        }
        #expect(throws: AudioDecodingError.unreadable(path: directory.url.path, reason: "it is a directory"))
        {
            try AudioDecoder.info(ofFileAt: directory.url.path)
        }
        let empty = try directory.write([], to: "empty.ogg")
        #expect(throws: AudioDecodingError.unreadable(path: empty, reason: "the file is empty (0 bytes)")) {
            try AudioDecoder.decode(fileAt: empty)
        }
        #expect(throws: AudioDecodingError.unreadable(path: "e", reason: "the file is empty (0 bytes)")) {
            try AudioDecoder.decode(bytes: [], name: "e")
        }
    }

    @Test("no known format is unsupported, with a one-line message naming the file")
    func unknownFormat() {
        let pdf = Array("%PDF-1.4".utf8) + [UInt8](repeating: 0, count: 64)
        do {
            _ = try AudioDecoder.decode(bytes: pdf, name: "music.flac")
            Issue.record("a PDF should be rejected")
        } catch {
            #expect(
                error
                    == .unsupportedFormat(
                        path: "music.flac", reason: "its first bytes match no audio format SoundStation knows"
                    ))
            #expect(error.description.hasPrefix("Unsupported audio in 'music.flac'"))
            #expect(!error.description.contains("\n"))
        }
        // A FLAC signature with nothing behind it is a FLAC that libsndfile cannot read.
        do {
            _ = try AudioDecoder.decode(
                bytes: Array("fLaC".utf8) + [UInt8](repeating: 0, count: 64), name: "x.flac")
            Issue.record("an empty FLAC should be rejected")
        } catch {
            #expect(error.description.contains("x.flac") && error.description.contains("libsndfile"))
        }
    }
}
