import FuzzDriver
import SoundStation

/// One input: a manifest loads or fails with a catalogue error, and a cue parses or fails with a
/// cue error; nothing crashes.
func fuzzManifest(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let catalogue = try? Catalogue(json: bytes, root: "/nonexistent-soundstation-fuzz-root") {
        precondition(Set(catalogue.entries.map(\.name)).count == catalogue.entries.count)
    }
    _ = try? SoundCue(parsing: String(decoding: bytes, as: UTF8.self))
    return 0
}

/// libFuzzer's entry point, for its own `main` and for `-runs` replays.
@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt { fuzzManifest(data, size) }

@_cdecl("fuzz_manifest_main")
func fuzzManifestMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc: argc, argv: argv) { fuzzManifest($0, $1) }
}
