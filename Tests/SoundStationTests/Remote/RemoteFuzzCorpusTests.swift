import Foundation
import Testing

@testable import SoundStation

/// Every input fuzz-remote kept or crashed on, replayed as a stream through the extractor and as the
/// bytes of a message, a command and an event: nothing crashes, no introducer passes through, and the
/// seed frames still decode.
@Suite struct RemoteFuzzCorpusTests {
    @Test func remoteInputsExtractOrFailCleanly() throws {
        let inputs = FuzzCorpusTests.inputs("remote")
        #expect(inputs.count >= 8)
        var decoded = 0
        for input in inputs {
            let bytes = [UInt8](try Data(contentsOf: input))
            var extractor = FrameExtractor()
            var text: [UInt8] = []
            var messages: [[UInt8]] = []
            extractor.feed(bytes, now: 0, text: &text, messages: &messages)
            extractor.flushHeld(into: &text)
            #expect(text.count <= bytes.count)
            #expect(!FrameExtractorTests.contains(text, RemoteFraming.introducer))
            for message in messages where (try? RemoteMessage(decoding: message)) != nil { decoded += 1 }
            _ = try? EngineCommand(decoding: bytes)
            _ = try? SoundEvent(decoding: bytes)
        }
        #expect(decoded >= 7, "the seed frames still decode")
    }
}
