import FuzzDriver
import SoundStation

/// One input through format detection and every decoder (libsndfile, libxmp, libvorbisfile and the
/// Swift WAV reader): it decodes to mono or stereo samples in -1...1, or fails with an error naming
/// the input; nothing crashes or hangs, leniently or strictly.
func fuzzFormats(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    for strict in [false, true] {
        do {
            let audio = try AudioDecoder.decode(
                bytes: bytes, name: "fuzz-input", options: DecodingOptions(strict: strict, warn: { _ in }))
            precondition(audio.channels >= 1 && audio.channels <= 2)
            precondition(audio.samples.count == audio.frameCount * audio.channels)
            precondition(audio.samples.allSatisfy { $0.isFinite && abs($0) <= 1 })
        } catch {
            precondition(error.description.contains("fuzz-input"))
        }
    }
    return 0
}

/// libFuzzer's entry point, for its own `main` and for `-runs` replays.
@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt { fuzzFormats(data, size) }

@_cdecl("fuzz_formats_main")
func fuzzFormatsMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc: argc, argv: argv) { fuzzFormats($0, $1) }
}
