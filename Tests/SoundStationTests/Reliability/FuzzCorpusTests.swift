import Foundation
import Testing

@testable import SoundStation

/// Every input the fuzzers ever kept (the corpus) or crashed on (Fuzz/Crashes), replayed: each one
/// decodes or fails with a typed error naming the input, and never crashes.
@Suite struct FuzzCorpusTests {
    static let fuzz = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fuzz")

    static func inputs(_ target: String) -> [URL] {
        ["Corpus", "Crashes"].flatMap { folder in
            let directory = fuzz.appendingPathComponent(folder).appendingPathComponent(target)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            return names.sorted().map { directory.appendingPathComponent($0) }
        }
    }

    @Test func wavInputsDecodeOrFailCleanly() throws {
        let inputs = Self.inputs("wav")
        #expect(inputs.count >= 2)
        var decoded = 0
        for input in inputs {
            let bytes = [UInt8](try Data(contentsOf: input))
            do {
                let audio = try WAVDecoder.decode(bytes: bytes, name: input.lastPathComponent)
                #expect(audio.samples.allSatisfy { $0.isFinite && abs($0) <= 1 })
                decoded += 1
            } catch {
                #expect(error.description.contains(input.lastPathComponent))
            }
        }
        #expect(decoded >= 2, "the seed files still decode")
    }

    @Test func formatInputsDecodeOrFailCleanly() throws {
        let inputs = Self.inputs("formats")
        #expect(inputs.count >= 14)
        var decoded: Set<AudioFileFormat> = []
        for input in inputs {
            let bytes = [UInt8](try Data(contentsOf: input))
            for strict in [false, true] {
                do {
                    let audio = try AudioDecoder.decode(
                        bytes: bytes, name: input.lastPathComponent,
                        options: DecodingOptions(strict: strict, warn: { _ in }))
                    #expect(audio.channels >= 1 && audio.channels <= 2)
                    #expect(audio.samples.allSatisfy { $0.isFinite && abs($0) <= 1 })
                    if input.lastPathComponent.hasPrefix("seed") {
                        decoded.insert(try AudioDecoder.detect(bytes, name: input.lastPathComponent))
                    }
                } catch {
                    #expect(error.description.contains(input.lastPathComponent))
                }
            }
        }
        let expected: Set<AudioFileFormat> = [.wav, .aiff, .flac, .mp3, .oggOpus, .oggVorbis, .mod]
        #expect(decoded == expected, "the seeds of every format still decode")
    }

    @Test func manifestInputsLoadOrFailCleanly() throws {
        let inputs = Self.inputs("manifest")
        #expect(inputs.count >= 3)
        for input in inputs {
            let bytes = [UInt8](try Data(contentsOf: input))
            do {
                let catalogue = try Catalogue(
                    json: bytes, root: "/nonexistent-root", manifestName: input.lastPathComponent)
                #expect(Set(catalogue.entries.map(\.name)).count == catalogue.entries.count)
            } catch {
                #expect(!error.description.isEmpty)
            }
            _ = try? SoundCue(parsing: String(decoding: bytes, as: UTF8.self))
        }
    }
}
