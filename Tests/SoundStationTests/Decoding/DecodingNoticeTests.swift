import Foundation
import Synchronization
import Testing

@testable import SoundStation

/// A library never writes on a game's terminal: decode warnings and the C libraries' lines reach the
/// engines' notice handlers instead.
@Suite("Decoding notices")
struct DecodingNoticeTests {
    @Test("a file cut short, decoded with the default options, is a notice on an open engine")
    func cutShortIsANotice() throws {
        let engine = try AudioEngine(output: .offline(sampleRate: 48_000, channels: 2))
        defer { engine.shutdown() }
        let heard = Mutex<[String]>([])
        let subscription = engine.onNotice { line in heard.withLock { $0.append(line) } }
        defer { subscription.cancel() }
        let tone = (0..<4_800).map { Float(sin(Double($0) * 0.1)) * 0.5 }
        let wav = WAVWriter.encode(PCMAudio(sampleRate: 48_000, channels: 1, samples: tone), format: .int16)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("notice-\(UUID()).wav").path
        try Data(wav.prefix(wav.count / 2)).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let audio = try AudioDecoder.decode(fileAt: path)
        #expect(audio.frameCount > 1_000 && audio.frameCount < 4_800)
        let deadline = ContinuousClock.now + .seconds(5)
        while heard.withLock({ $0.isEmpty }) && ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
        let lines = heard.withLock { $0 }
        #expect(lines.contains { $0.contains(path) && $0.contains("cut short") }, "\(lines)")
    }

    @Test("a notice sent before the first handler reaches it (what an engine says while it opens)")
    func heldUntilSubscribed() {
        let broadcast = Broadcast<String>(holding: 2)
        broadcast.send("one")
        broadcast.send("two")
        broadcast.send("three")
        let heard = Mutex<[String]>([])
        let subscription = broadcast.add { line in heard.withLock { $0.append(line) } }
        broadcast.send("four")
        #expect(heard.withLock { $0 } == ["two", "three", "four"])
        subscription.cancel()
    }
}
