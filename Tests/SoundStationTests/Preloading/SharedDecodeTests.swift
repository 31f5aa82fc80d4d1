import Foundation
import SoundStationTesting
import Testing

@testable import SoundStation

/// Entries that name the same file share one decode and one device copy.
@Suite struct SharedDecodeTests {
    @Test("100,000 entries on one small file preload holding one decode")
    func aHundredThousandEntriesOnOneFile() async throws {
        let assets = try TestAssets()
        try WAVWriter.write(
            Signals.sine(frequency: 880, seconds: 0.1), toFileAt: assets.root + "/one.wav", format: .int16)
        let count = 100_000
        for index in 0..<count { assets.add("s\(index)", file: "one.wav", kind: "effect") }
        let engine = try AudioEngine(output: .offline(sampleRate: 48_000, channels: 2))
        let bank = SoundBank(engine: engine, catalogue: try assets.catalogue(), pcmCache: nil)
        let loaded = try await bank.preload()
        #expect(loaded.names.count == count && loaded.failures.isEmpty)
        // One buffer of 4,800 16-bit frames; every entry plays it under its own name and id.
        #expect(engine.bufferCount == 1)
        #expect(bank.loadedBytes == 4800 * 2)
        let first = try #require(bank.buffer(named: "s0"))
        let last = try #require(bank.buffer(named: "s\(count - 1)"))
        #expect(first.holder === last.holder && last.name == "s\(count - 1)")
        #expect(try bank.id(of: "s0") != bank.id(of: "s\(count - 1)"))
        let voice = try #require(try engine.play(last))
        let mix = try engine.render(frames: 4800)
        #expect(AudioAnalysis.peak(mix) > 0.2)
        _ = voice
    }

    @Test("entries on one file with other loop points share the samples and keep their own loops")
    func loopPointsOfTheirOwn() async throws {
        let assets = try TestAssets()
        try WAVWriter.write(
            Signals.sine(frequency: 440, seconds: 1), toFileAt: assets.root + "/tone.wav", format: .float32)
        assets.add("whole", file: "tone.wav", kind: "effect", extra: #""loop": true"#)
        assets.add("again", file: "tone.wav", kind: "effect", extra: #""loop": true"#)
        assets.add(
            "tail", file: "tone.wav", kind: "effect",
            extra: #""loop": true, "loopStart": 24000, "loopEnd": 48000"#)
        let engine = try AudioEngine(output: .offline(sampleRate: 48_000, channels: 2))
        let bank = SoundBank(engine: engine, catalogue: try assets.catalogue(), pcmCache: nil)
        _ = try await bank.preload()
        let whole = try #require(bank.buffer(named: "whole"))
        let again = try #require(bank.buffer(named: "again"))
        let tail = try #require(bank.buffer(named: "tail"))
        #expect(whole.holder === again.holder)
        #expect(tail.holder !== whole.holder && tail.loopPoints == 24_000..<48_000)
        #expect(whole.loopPoints == nil)
        // Two uploads for two sets of loop points; the samples themselves are one array.
        #expect(engine.bufferCount == 2)
        whole.samples.withUnsafeBufferPointer { a in
            tail.samples.withUnsafeBufferPointer { b in #expect(a.baseAddress == b.baseAddress) }
        }
    }

    @Test("a file cut short warns for every entry that shares it")
    func warningsAreShared() async throws {
        let assets = try TestAssets()
        try assets.addWAV("cut", Signals.sine(frequency: 440, seconds: 0.5))
        assets.add("cut-too", file: "cut.wav", kind: "effect")
        let path = "\(assets.root)/cut.wav"
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        try bytes.prefix(44 + (bytes.count - 44) / 2).write(to: URL(fileURLWithPath: path))
        let engine = try AudioEngine(output: .offline())
        let bank = SoundBank(engine: engine, catalogue: try assets.catalogue(), pcmCache: nil)
        let loaded = try await bank.preload()
        #expect(Set(loaded.warnings.map(\.name)) == ["cut", "cut-too"])
        #expect(engine.bufferCount == 1)
    }

    @Test("a file changed on disk is decoded again, not shared with its old decode")
    func anEditedFileIsNotShared() throws {
        let assets = try TestAssets()
        try assets.addWAV("a", Signals.sine(frequency: 440, seconds: 0.5))
        assets.add("b", file: "a.wav", kind: "effect")
        let engine = try AudioEngine(output: .offline())
        let bank = SoundBank(engine: engine, catalogue: try assets.catalogue(), pcmCache: nil)
        try bank.load("a")
        try WAVWriter.write(
            Signals.sine(frequency: 440, seconds: 0.25), toFileAt: assets.root + "/a.wav", format: .float32)
        try bank.load("b")
        #expect(bank.buffer(named: "a")?.frameCount == 24_000)
        #expect(bank.buffer(named: "b")?.frameCount == 12_000)
    }
}
