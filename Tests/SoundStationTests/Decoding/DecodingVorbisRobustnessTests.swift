import Foundation
import SoundStationTesting
import Testing

@testable import SoundStation

@Suite("Ogg Vorbis failures and partial files")
struct DecodingVorbisRobustnessTests {
    @Test("after flush() without finish() the file already decodes up to about the flushed frames")
    func flushWithoutFinish() throws {
        let directory = try DecodingTestDirectory()
        defer { directory.remove() }
        let path = directory.path("recording.ogg")
        let encoder = try VorbisEncoder(path: path, sampleRate: 44_100, channels: 2, quality: 0.3)
        #expect(encoder.bytesWritten > 0)  // headers are on disk before any audio
        #expect(try VorbisFileDecoder(path: path).info.frameCount == 0)

        try encoder.write(DecodingTestSignal.sine(frequency: 440, rate: 44_100, frames: 30_000, channels: 2))
        try encoder.flush()
        #expect(encoder.framesWritten == 30_000)
        // The file is read while the encoder is still open, as after a crash.
        let audio = try VorbisFileDecoder(bytes: try directory.read(path), name: "recording.ogg").readAll()
        #expect(audio.frameCount >= 30_000 - 4_096)
        #expect(audio.frameCount <= 30_000)
        #expect(
            abs(
                DecodingTestSignal.zeroCrossings(
                    DecodingTestSignal.channel(0, of: audio.samples, channels: 2)) - audio
                    .frameCount * 880 / 44_100) <= 4)
    }

    @Test("a cut Ogg file plays up to the cut, or is truncated if cut in its headers; never a crash")
    func truncatedAtHalf() throws {
        let directory = try DecodingTestDirectory()
        defer { directory.remove() }
        let path = directory.path("full.ogg")
        // Noise makes pages fill up, so the file has many audio pages rather than a handful.
        let sine = DecodingTestSignal.sine(frequency: 440, rate: 44_100, frames: 88_200)
        let input = zip(sine, DecodingTestSignal.noise(count: sine.count, amplitude: 0.3)).map { $0 + $1 }
        try VorbisFixture.encode(input, to: path, rate: 44_100, channels: 1)
        let bytes = try directory.read(path)
        #expect(bytes.count > 15_000)  // so that half-way is well past the headers

        // Cut mid-page in the audio, libvorbisfile plays every complete page before the cut.
        let half = try VorbisFileDecoder(bytes: Array(bytes.prefix(bytes.count / 2)), name: "half.ogg")
            .readAll()
        #expect(half.frameCount > 10_000)
        #expect(half.frameCount < 50_000)
        #expect(
            abs(
                AudioAnalysis.decibels(
                    AudioAnalysis.rms(half.samples) / AudioAnalysis.rms(input))) < 0.5)

        // Cut inside the headers there is nothing to play, and the error says the file is cut short.
        let inHeaders = #expect(throws: AudioDecodingError.self) {
            try VorbisFileDecoder(bytes: Array(bytes.prefix(2_000)), name: "head.ogg")
        }
        #expect(inHeaders?.description.contains("cut short") == true)

        // Every cut point, including inside the headers, must end in audio or a typed error.
        for length in stride(from: 1, to: bytes.count, by: 401) {
            do {
                _ = try VorbisFileDecoder(bytes: Array(bytes.prefix(length)), name: "cut.ogg").readAll()
            } catch {
                #expect(error.path == "cut.ogg")
            }
        }
    }

    @Test("random bytes, and random bytes behind an OggS magic, are rejected")
    func randomBytes() {
        var generator = SystemRandomNumberGenerator()
        let noise = (0..<4_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        #expect(
            throws: AudioDecodingError.unsupportedFormat(
                path: "noise.ogg", reason: "it does not start with 'OggS', so it is not an Ogg file")
        ) {
            try VorbisFileDecoder(bytes: [0] + noise, name: "noise.ogg")
        }
        do {
            _ = try VorbisFileDecoder(bytes: Array("OggS".utf8) + noise, name: "fake.ogg")
            Issue.record("random bytes after OggS should not open")
        } catch {
            switch error {
            case .unsupportedFormat, .corrupt, .truncated: break
            case .unreadable, .tooLarge: Issue.record("unexpected \(error)")
            }
        }
        #expect(throws: AudioDecodingError.self) { try VorbisFileDecoder(bytes: [], name: "none.ogg") }
    }

    @Test("chained streams decode when the links match and are rejected when rates differ")
    func chainedStreams() throws {
        let directory = try DecodingTestDirectory()
        defer { directory.remove() }
        let tone = DecodingTestSignal.sine(frequency: 440, rate: 22_050, frames: 5_000)
        try VorbisFixture.encode(tone, to: directory.path("a.ogg"), rate: 22_050, channels: 1, serial: 1)
        try VorbisFixture.encode(tone, to: directory.path("b.ogg"), rate: 22_050, channels: 1, serial: 2)
        try VorbisFixture.encode(tone, to: directory.path("c.ogg"), rate: 44_100, channels: 1, serial: 3)
        let a = try directory.read(directory.path("a.ogg"))
        let b = try directory.read(directory.path("b.ogg"))
        let c = try directory.read(directory.path("c.ogg"))

        let same = try VorbisFileDecoder(bytes: a + b, name: "same.ogg")
        #expect(same.info.frameCount == 10_000)
        #expect(try same.readAll().frameCount == 10_000)

        do {
            _ = try VorbisFileDecoder(bytes: a + c, name: "mixed.ogg")
            Issue.record("a chain with differing rates should be rejected")
        } catch {
            guard case .unsupportedFormat(let path, let reason) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(path == "mixed.ogg")
            #expect(reason.contains("22050 Hz 1 ch, then 44100 Hz 1 ch"))
        }
    }

    @Test("settings libvorbisenc cannot honour are rejected before any file is created")
    func invalidSettings() throws {
        let directory = try DecodingTestDirectory()
        defer { directory.remove() }
        let path = directory.path("never.ogg")
        for (rate, channels, quality) in [
            (44_100, 0, Float(0.4)), (44_100, 3, 0.4), (0, 1, 0.4), (44_100, 1, 1.5), (44_100, 1, .nan),
        ] {
            #expect(throws: AudioEncodingError.self) {
                try VorbisEncoder(path: path, sampleRate: rate, channels: channels, quality: quality)
            }
        }
        #expect(!FileManager.default.fileExists(atPath: path))

        let encoder = try VorbisEncoder(path: path, sampleRate: 44_100, channels: 2, quality: 0)
        #expect(throws: AudioEncodingError.self) { try encoder.write([0, 0, 0]) }
    }

    @Test("a missing directory, a full disk and writing after finish are reported")
    func writeFailures() throws {
        let directory = try DecodingTestDirectory()
        defer { directory.remove() }
        let missing = directory.path("nope/out.ogg")
        #expect(throws: AudioEncodingError.cannotCreate(path: missing, reason: "No such file or directory")) {
            try VorbisEncoder(path: missing, sampleRate: 44_100, channels: 1, quality: 0.4)
        }
        #expect(throws: AudioEncodingError.writeFailed(path: "/dev/full", reason: "No space left on device"))
        {
            try VorbisEncoder(path: "/dev/full", sampleRate: 44_100, channels: 1, quality: 0.4)
        }

        let encoder = try VorbisEncoder(
            path: directory.path("done.ogg"), sampleRate: 44_100, channels: 1, quality: 0.4)
        try encoder.finish()
        #expect(try VorbisFileDecoder(path: encoder.path).readAll().frameCount == 0)
        let error = #expect(throws: AudioEncodingError.self) { try encoder.write([0]) }
        #expect(error?.description.contains("done.ogg") == true)
        #expect(throws: AudioEncodingError.self) { try encoder.finish() }
    }
}
