import FuzzDriver
import SoundStation

/// One input, as a hostile server could send it: as a terminal stream cut in two (at a point the
/// first byte picks) through the player's frame extractor, and as the bytes of one remote message,
/// one engine command and one event. Nothing crashes; no passed-through text holds a frame's
/// introducer; whatever decodes encodes back to bytes that decode again.
func fuzzRemote(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var extractor = FrameExtractor(limits: .init(maxEncodedPayload: 4096, messagesPerSecond: 100, burst: 50))
    var text: [UInt8] = []
    var messages: [[UInt8]] = []
    let cut = bytes.isEmpty ? 0 : Int(bytes[0]) % (bytes.count + 1)
    extractor.feed(Array(bytes[..<cut]), now: 0, text: &text, messages: &messages)
    extractor.feed(Array(bytes[cut...]), now: 0.5, text: &text, messages: &messages)
    extractor.flushHeld(into: &text)
    precondition(text.count <= bytes.count)
    precondition(!contains(text, RemoteFraming.introducer), "a frame's introducer reached the terminal")
    for message in messages + [bytes] {
        if let decoded = try? RemoteMessage(decoding: message) {
            precondition((try? RemoteMessage(decoding: decoded.encoded())) != nil)
        }
        if let command = try? EngineCommand(decoding: message) {
            precondition((try? EngineCommand(decoding: command.encoded())) != nil)
        }
        if let event = try? SoundEvent(decoding: message), let again = event.encoded() {
            precondition((try? SoundEvent(decoding: again)) != nil)
        }
    }
    return 0
}

func contains(_ bytes: [UInt8], _ needle: [UInt8]) -> Bool {
    guard bytes.count >= needle.count else { return false }
    return (0...(bytes.count - needle.count)).contains { Array(bytes[$0..<$0 + needle.count]) == needle }
}

/// libFuzzer's entry point, for its own `main` and for `-runs` replays.
@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt { fuzzRemote(data, size) }

@_cdecl("fuzz_remote_main")
func fuzzRemoteMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc: argc, argv: argv) { fuzzRemote($0, $1) }
}
