/// libFuzzer's driver, linked in by `-sanitize=fuzzer`.
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt

/// Runs libFuzzer on `target` with the process's arguments (corpus folders, -max_total_time, ...).
///
/// SwiftPM links an executable's entry point under the name `<target>_main`; each fuzz target
/// exports that name and calls this, so libFuzzer's own `main` is not needed.
public func runFuzzer(
    argc: CInt, argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
    target: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments, target)
}
