import CSoundStation
import SoundStation

// The C API's engine functions: open, close, version. Each is documented in soundstation.h.

/// The engine behind an `ss_engine *`.
/// - Parameter pointer: The handle.
/// - Returns: Its engine (possibly closed).
/// - Throws: ``CError`` (invalid argument) for NULL.
func handle(_ pointer: OpaquePointer?) throws(CError) -> CEngine {
    guard let pointer else { throw .invalid("engine is NULL: open one with ss_open") }
    guard let swift = ss_internal_engine_swift(pointer) else { throw .invalid("engine is not open") }
    return Unmanaged<CEngine>.fromOpaque(swift).takeUnretainedValue()
}

/// `ss_version`: the library's version as `SS_API_VERSION` computes it.
/// - Returns: major * 10000 + minor * 100 + patch.
@_cdecl("ss_version")
public func ssVersion() -> Int32 {
    Int32(SS_VERSION_MAJOR * 10000 + SS_VERSION_MINOR * 100 + SS_VERSION_PATCH)
}

/// `ss_open`: opens an output and reads the catalogue.
/// - Parameters:
///   - out: Receives the handle, or NULL on failure.
///   - output: `device`, `device:NAME`, `auto`, `silent` or `offline:RATE`.
///   - assetsDir: The folder of `catalogue.json`, or NULL.
/// - Returns: `SS_OK` or a negative code.
@_cdecl("ss_open")
public func ssOpen(
    _ out: UnsafeMutablePointer<OpaquePointer?>?, _ output: UnsafePointer<CChar>?,
    _ assetsDir: UnsafePointer<CChar>?
) -> Int32 {
    cCall { () throws(CError) -> Int32 in
        guard let out else { throw .invalid("out is NULL: pass the address of an ss_engine pointer") }
        out.pointee = nil
        let spec = try OutputSpec(parsing: try string(output, "output"))
        let assets = try assetsDir.map { pointer throws(CError) in try string(pointer, "assets_dir") }
        let engine = try CEngine(output: spec, assets: assets)
        ss_internal_engine_attach(engine.cHandle, Unmanaged.passRetained(engine).toOpaque())
        out.pointee = engine.cHandle
        return SS_OK.rawValue
    }
}

/// `ss_open_with`: opens an engine as an `ss_open_options` says.
/// - Parameters:
///   - out: Receives the handle, or NULL on failure.
///   - options: The caller's options, read up to their `size`.
/// - Returns: `SS_OK` or a negative code.
@_cdecl("ss_open_with")
public func ssOpenWith(
    _ out: UnsafeMutablePointer<OpaquePointer?>?, _ options: UnsafePointer<ss_open_options>?
) -> Int32 {
    cCall { () throws(CError) -> Int32 in
        guard let out else { throw .invalid("out is NULL: pass the address of an ss_engine pointer") }
        out.pointee = nil
        guard let options else {
            throw .invalid("options is NULL: fill an ss_open_options with ss_open_options_init")
        }
        var o = ss_open_options()
        let read = ss_internal_read_open_options(options, &o)
        guard read == SS_OK.rawValue else {
            throw CError(code: read, message: String(cString: ss_last_error()))
        }
        let spec = try OutputSpec(o)
        let assets = try o.assets_dir.map { pointer throws(CError) in try string(pointer, "assets_dir") }
        let engine = try CEngine(output: spec, assets: assets)
        ss_internal_engine_attach(engine.cHandle, Unmanaged.passRetained(engine).toOpaque())
        out.pointee = engine.cHandle
        return SS_OK.rawValue
    }
}

/// `ss_close`: stops every sound and closes the output; the handle then only returns `SS_ERR_CLOSED`.
/// - Parameter engine: The handle, or NULL (nothing happens).
@_cdecl("ss_close")
public func ssClose(_ engine: OpaquePointer?) {
    guard let engine else { return }
    (try? handle(engine))?.close()
}

/// `ss_sample_rate`: the output's rate.
/// - Parameter engine: The handle.
/// - Returns: Hz, or a negative code.
@_cdecl("ss_sample_rate")
public func ssSampleRate(_ engine: OpaquePointer?) -> Int32 {
    cCall { () throws(CError) -> Int32 in Int32(try handle(engine).system.engine.sampleRate) }
}

/// `ss_time`: seconds on the engine clock.
/// - Parameter engine: The handle.
/// - Returns: The time, or a negative code.
@_cdecl("ss_time")
public func ssTime(_ engine: OpaquePointer?) -> Double {
    do {
        return try handle(engine).system.engine.time.inSeconds
    } catch {
        return Double(error.report())
    }
}
