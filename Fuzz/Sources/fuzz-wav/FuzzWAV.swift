import FuzzDriver
import SoundStation

/// One input: it must decode or fail with an error, never crash, hang or produce bad samples.
func fuzzWAV(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let audio = try? WAVDecoder.decode(bytes: bytes, name: "fuzz.wav") {
        precondition(audio.samples.count == audio.frameCount * audio.channels)
        precondition(audio.samples.allSatisfy { $0.isFinite && abs($0) <= 1 })
    }
    _ = try? WAVDecoder.info(bytes: bytes, name: "fuzz.wav")
    _ = try? AudioDecoder.decode(bytes: bytes, name: "fuzz")
    return 0
}

/// libFuzzer's entry point, for its own `main` and for `-runs` replays.
@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt { fuzzWAV(data, size) }

@_cdecl("fuzz_wav_main")
func fuzzWAVMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc: argc, argv: argv) { fuzzWAV($0, $1) }
}
