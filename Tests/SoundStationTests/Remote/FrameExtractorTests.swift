import Foundation
import Testing

@testable import SoundStation

/// The player's side finds every sound frame in a terminal stream, however it is cut, passes every
/// other byte through untouched, and drops (never prints) frames that are malformed, too long or too
/// many.
@Suite struct FrameExtractorTests {
    /// Runs `chunks` through one extractor.
    static func extract(
        _ chunks: [[UInt8]], limits: FrameExtractor.Limits = .init(), now: (Int) -> Double = { _ in 0 }
    ) -> (text: [UInt8], messages: [[UInt8]], counts: FrameExtractor.Counts) {
        var extractor = FrameExtractor(limits: limits)
        var text: [UInt8] = []
        var messages: [[UInt8]] = []
        for (index, chunk) in chunks.enumerated() {
            extractor.feed(chunk, now: now(index), text: &text, messages: &messages)
        }
        extractor.flushHeld(into: &text)
        return (text, messages, extractor.counts)
    }

    static let screen = Array(
        "\u{1B}[2J\u{1B}[1;1Hscore: 10\u{1B}[0m\r\n\u{1B}]0;title\u{07}\u{1B}_own apc\u{1B}\\ok".utf8)

    @Test func passesAStreamWithoutFramesUntouched() {
        let result = Self.extract([Self.screen])
        #expect(result.text == Self.screen)
        #expect(result.messages.isEmpty)
        #expect(result.counts == FrameExtractor.Counts())
    }

    @Test func findsFramesAtEveryCutAndInsideTheGamesOwnEscapeSequences() throws {
        let message = RemoteMessage.clock(frame: 48_000).encoded()
        let frame = try #require(RemoteFraming.frame(message))
        // The frame lands inside an escape sequence the game wrote in two pieces.
        let split = Self.screen.firstIndex(of: UInt8(ascii: ";"))!
        let stream = Array(Self.screen[..<split]) + frame + Array(Self.screen[split...]) + frame
        for cut in 0...stream.count {
            let result = Self.extract([Array(stream[..<cut]), Array(stream[cut...])])
            #expect(result.text == Self.screen, "cut at \(cut)")
            #expect(result.messages == [message, message], "cut at \(cut)")
        }
        // One byte at a time.
        let bytewise = Self.extract(stream.map { [$0] })
        #expect(bytewise.text == Self.screen)
        #expect(bytewise.messages.count == 2)
    }

    @Test func dropsAndCountsMalformedFramesWithoutPrintingThem() throws {
        let good = try #require(RemoteFraming.frame([1, 2, 3]))
        let badByte = RemoteFraming.introducer + Array("QUJD\u{01}".utf8)
        let badEnd = RemoteFraming.introducer + Array("QUJD\u{1B}x".utf8)
        let badBase64 = RemoteFraming.introducer + Array("QUJ\u{1B}\\".utf8)
        let result = Self.extract([Array("a".utf8), badByte, Array("b".utf8), badEnd, badBase64, good])
        // A frame cut short by a byte no frame holds takes the rest of its line with it (up to the
        // next ESC); an ESC that did not terminate a frame, which may begin the next, is the stream's
        // again, and so is the byte after it. Nothing else of a frame is printed.
        #expect(result.text == Array("a\u{1B}x".utf8))
        #expect(result.messages == [[1, 2, 3]])
        #expect(result.counts.malformed == 3)
    }

    @Test func dropsOversizedFramesAndResumesAfterThem() throws {
        let limits = FrameExtractor.Limits(maxEncodedPayload: 16)
        let long = try #require(RemoteFraming.frame([UInt8](repeating: 7, count: 100)))
        let short = try #require(RemoteFraming.frame([9]))
        let result = Self.extract([Array("x".utf8) + long + Array("y".utf8) + short], limits: limits)
        #expect(result.text == Array("xy".utf8))
        #expect(result.messages == [[9]])
        #expect(result.counts.oversized == 1)
    }

    @Test func capsTheRateOfMessages() throws {
        let frame = try #require(RemoteFraming.frame([5]))
        let limits = FrameExtractor.Limits(messagesPerSecond: 10, burst: 20)
        // 100 frames at once: the burst passes, the rest are dropped; a second later, 10 more pass.
        let flood = Self.extract([Array(repeating: frame, count: 100).flatMap { $0 }])
        #expect(flood.messages.count == 100)
        let limited = Self.extract(
            [
                Array(repeating: frame, count: 100).flatMap { $0 },
                Array(repeating: frame, count: 100).flatMap { $0 },
            ],
            limits: limits, now: { Double($0) })
        #expect(limited.messages.count == 30)
        #expect(limited.counts.rateLimited == 170)
        #expect(limited.text.isEmpty)
    }

    @Test func holdsOnlyAnIntroducersStartUntilFlushed() {
        var extractor = FrameExtractor()
        var text: [UInt8] = []
        var messages: [[UInt8]] = []
        extractor.feed(Array("abc\u{1B}_S".utf8), now: 0, text: &text, messages: &messages)
        #expect(text == Array("abc".utf8))
        #expect(extractor.holdsBytes)
        extractor.flushHeld(into: &text)
        #expect(text == Array("abc\u{1B}_S".utf8))
        #expect(!extractor.holdsBytes)
    }

    @Test func survivesRandomBytesAndPassesEverythingButFrames() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            // Random bytes biased toward the introducer's and base64's, cut at random.
            let alphabet: [UInt8] = RemoteFraming.introducer + [0x5C, 0x41, 0x3D, 0x00, 0x0A, 0xFF]
            let stream = (0..<Int.random(in: 0..<400, using: &generator)).map { _ in
                Bool.random(using: &generator)
                    ? alphabet.randomElement(using: &generator)!
                    : UInt8.random(in: 0...255, using: &generator)
            }
            var extractor = FrameExtractor(limits: .init(maxEncodedPayload: 32))
            var text: [UInt8] = []
            var messages: [[UInt8]] = []
            var index = 0
            while index < stream.count {
                let end = min(stream.count, index + Int.random(in: 1...17, using: &generator))
                extractor.feed(Array(stream[index..<end]), now: 0, text: &text, messages: &messages)
                index = end
            }
            extractor.flushHeld(into: &text)
            #expect(text.count <= stream.count)
            // What passes never holds a whole introducer: no frame reaches the terminal.
            #expect(
                !Self.contains(text, RemoteFraming.introducer)
                    || Self.contains(stream, RemoteFraming.introducer))
        }
    }

    static func contains(_ bytes: [UInt8], _ needle: [UInt8]) -> Bool {
        guard bytes.count >= needle.count else { return false }
        return (0...(bytes.count - needle.count)).contains { Array(bytes[$0..<$0 + needle.count]) == needle }
    }
}
