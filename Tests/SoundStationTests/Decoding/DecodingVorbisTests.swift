import Foundation
import SoundStationTesting
import Testing

@testable import SoundStation

/// Ogg Vorbis files made with the encoder under test.
enum VorbisFixture {
    /// Encodes `samples` to `path` in one go and returns the encoder for its counters.
    @discardableResult
    static func encode(
        _ samples: [Float], to path: String, rate: Int, channels: Int, quality: Float = 0.4,
        serial: Int32 = 0x5353
    ) throws -> VorbisEncoder {
        let encoder = try VorbisEncoder(
            path: path, sampleRate: rate, channels: channels, quality: quality, serialNumber: serial)
        try encoder.write(samples)
        try encoder.finish()
        return encoder
    }
}

@Suite("Ogg Vorbis round trips")
struct DecodingVorbisTests {
    @Test("a 440 Hz mono sine keeps rate, exact length, pitch and level")
    func monoSine() throws {
        let directory = try DecodingTestDirectory()
        defer { directory.remove() }
        let path = directory.path("sine.ogg")
        let input = DecodingTestSignal.sine(frequency: 440, rate: 44_100, frames: 44_100)
        try VorbisFixture.encode(input, to: path, rate: 44_100, channels: 1)

        let decoder = try VorbisFileDecoder(path: path)
        #expect(
            decoder.info
                == AudioFileInfo(format: .oggVorbis, sampleRate: 44_100, channels: 1, frameCount: 44_100))
        let audio = try decoder.readAll()
        #expect(audio.sampleRate == 44_100)
        #expect(audio.channels == 1)
        #expect(audio.frameCount == 44_100)
        #expect(abs(DecodingTestSignal.zeroCrossings(audio.samples) - 880) <= 4)
        let level = AudioAnalysis.decibels(
            AudioAnalysis.rms(audio.samples) / AudioAnalysis.rms(input))
        #expect(abs(level) < 0.5)
    }

    @Test("a stereo sine keeps each channel's own frequency")
    func stereoSine() throws {
        let directory = try DecodingTestDirectory()
        defer { directory.remove() }
        let path = directory.path("stereo.ogg")
        let input = DecodingTestSignal.sine(frequency: 440, rate: 48_000, frames: 24_000, channels: 2)
        try VorbisFixture.encode(input, to: path, rate: 48_000, channels: 2)

        let audio = try AudioDecoder.decode(fileAt: path)
        #expect(audio.sampleRate == 48_000)
        #expect(audio.channels == 2)
        #expect(audio.frameCount == 24_000)
        for (channel, crossings) in [(0, 440), (1, 880)] {
            let decoded = DecodingTestSignal.channel(channel, of: audio.samples, channels: 2)
            let original = DecodingTestSignal.channel(channel, of: input, channels: 2)
            #expect(abs(DecodingTestSignal.zeroCrossings(decoded) - crossings) <= 4)
            #expect(
                abs(
                    AudioAnalysis.decibels(
                        AudioAnalysis.rms(decoded) / AudioAnalysis.rms(original))) < 0.5)
        }
    }

    @Test("the same input and settings give the same bytes")
    func deterministic() throws {
        let directory = try DecodingTestDirectory()
        defer { directory.remove() }
        let input = DecodingTestSignal.sine(frequency: 440, rate: 22_050, frames: 11_025, channels: 2)
        let first = try VorbisFixture.encode(input, to: directory.path("a.ogg"), rate: 22_050, channels: 2)
        try VorbisFixture.encode(input, to: directory.path("b.ogg"), rate: 22_050, channels: 2)
        let bytes = try directory.read(directory.path("a.ogg"))
        #expect(bytes == (try directory.read(directory.path("b.ogg"))))
        #expect(first.framesWritten == 11_025)
        #expect(first.bytesWritten == bytes.count)
        #expect(first.path == directory.path("a.ogg"))
    }

    @Test(
        "reading in small chunks gives the same samples as readAll (which decodes in place)",
        arguments: [1, 2])
    func streamingMatchesReadAll(channels: Int) throws {
        let directory = try DecodingTestDirectory()
        defer { directory.remove() }
        let path = directory.path("stream.ogg")
        try VorbisFixture.encode(
            DecodingTestSignal.sine(frequency: 440, rate: 44_100, frames: 10_000, channels: channels),
            to: path,
            rate: 44_100, channels: channels)

        let whole = try VorbisFileDecoder(path: path).readAll()
        let decoder = try VorbisFileDecoder(bytes: try directory.read(path), name: "stream.ogg")
        var streamed: [Float] = []
        while true {
            let chunk = try decoder.read(maxFrames: 333)
            if chunk.isEmpty { break }
            #expect(chunk.count <= 333 * channels)
            streamed += chunk
        }
        #expect(streamed == whole.samples)
        #expect(try decoder.read(maxFrames: 100).isEmpty)
        try decoder.seek(toFrame: 0)
        #expect(try decoder.read(maxFrames: .max) == whole.samples)
        #expect(try decoder.read(maxFrames: 0).isEmpty)
    }

    @Test(
        "a long file decoded in two halves at once gives exactly the samples of one pass",
        arguments: [1, 2])
    func vorbisSplitDecodeMatchesOnePass(channels: Int) throws {
        let directory = try DecodingTestDirectory()
        defer { directory.remove() }
        let path = directory.path("long.ogg")
        let frames = VorbisFileDecoder.splitFrames + 12_345
        let signal = zip(
            DecodingTestSignal.sine(frequency: 331, rate: 48_000, frames: frames, channels: channels),
            DecodingTestSignal.sine(
                frequency: 2_917, rate: 48_000, frames: frames, channels: channels, amplitude: 0.3)
        ).map { $0 + $1 }
        try VorbisFixture.encode(signal, to: path, rate: 48_000, channels: channels)
        let onePass = try VorbisFileDecoder(path: path).readAll()
        #expect(onePass.frameCount == frames)

        // The halves themselves, so the test cannot pass by not splitting.
        let decoder = try VorbisFileDecoder(path: path)
        let halves = try #require(decoder.decodeInHalves(frames: decoder.info.frameCount))
        #expect(halves.0 == onePass.samples)

        var options = DecodingOptions()
        options.splitsLongDecodes = true
        let fromFile = try VorbisFileDecoder(path: path, options: options)
        #expect(try fromFile.readAll().samples == onePass.samples)
        #expect(try fromFile.read(maxFrames: 100).isEmpty)
        let fromBytes = try VorbisFileDecoder(
            bytes: try directory.read(path), name: "long.ogg", options: options)
        #expect(try fromBytes.readAll().samples == onePass.samples)
        #expect(try AudioDecoder.decode(fileAt: path, options: options).samples == onePass.samples)
    }

    @Test("seek(toFrame:) then read matches the same frames of a full decode")
    func seekThenRead() throws {
        let directory = try DecodingTestDirectory()
        defer { directory.remove() }
        let path = directory.path("seek.ogg")
        try VorbisFixture.encode(
            DecodingTestSignal.sine(frequency: 440, rate: 44_100, frames: 20_000), to: path, rate: 44_100,
            channels: 1
        )
        let whole = try VorbisFileDecoder(path: path).readAll().samples

        let decoder = try VorbisFileDecoder(path: path)
        for frame in [12_345, 0, 19_000, 4_096] {
            try decoder.seek(toFrame: frame)
            let chunk = try decoder.read(maxFrames: 500)
            #expect(chunk.count == 500)
            #expect(DecodingTestSignal.maxDifference(chunk, Array(whole[frame..<frame + 500])) < 1e-4)
        }
        try decoder.seek(toFrame: 1_000_000)
        #expect(try decoder.read(maxFrames: 10).isEmpty)
    }

    @Test("oggdec and ogginfo from vorbis-tools accept the encoder's output")
    func crossCheckWithVorbisTools() throws {
        let tools = ["/usr/bin/oggdec", "/usr/bin/ogginfo"]
        guard tools.allSatisfy({ FileManager.default.isExecutableFile(atPath: $0) }) else { return }
        let directory = try DecodingTestDirectory()
        defer { directory.remove() }
        let path = directory.path("tools.ogg")
        try VorbisFixture.encode(
            DecodingTestSignal.sine(frequency: 440, rate: 44_100, frames: 8_000), to: path, rate: 44_100,
            channels: 1)

        #expect(try run(tools[1], [path]).contains("ENCODER=SoundStation"))
        let wavPath = directory.path("tools.wav")
        _ = try run(tools[0], ["--quiet", "-o", wavPath, path])
        let reference = try AudioDecoder.decode(fileAt: wavPath)
        let ours = try AudioDecoder.decode(fileAt: path)
        #expect(reference.frameCount == ours.frameCount)
        #expect(DecodingTestSignal.maxDifference(reference.samples, ours.samples) < 2 / 32_768)
    }

    /// Runs a tool, expecting success, and returns its standard output.
    private func run(_ tool: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(tool) failed")
        return String(decoding: output, as: UTF8.self)
    }
}
