import CSoundStation
import SoundStation

// The C API's playback functions. Each is documented in soundstation.h.

// `ss_play` is written in C (Sources/CSoundStation/play.c): it must be async-signal-safe.

/// `ss_play_at`: plays a loaded sound at a time on the engine clock.
/// - Parameters:
///   - engine: The handle.
///   - soundID: The sound's id.
///   - seconds: When.
///   - volume: Gain.
///   - pan: Position.
/// - Returns: `SS_OK`, `SS_REFUSED` or a negative code.
@_cdecl("ss_play_at")
public func ssPlayAt(
    _ engine: OpaquePointer?, _ soundID: Int32, _ seconds: Double, _ volume: Float, _ pan: Float
) -> Int32 {
    cCall { () throws(CError) -> Int32 in
        let engine = try handle(engine)
        try checked(seconds, "time", in: 0...1e9)
        try checkPlay(volume: volume, pitch: 1, pan: pan)
        let (system, sound) = try engine.sound(soundID)
        return try start(sound, in: system, volume: volume, pitch: 1, pan: pan, at: .seconds(seconds))
    }
}

/// `ss_stop_music`: stops the music.
/// - Parameters:
///   - engine: The handle.
///   - fadeSeconds: 0 at once; more fades out.
/// - Returns: `SS_OK` or a negative code.
@_cdecl("ss_stop_music")
public func ssStopMusic(_ engine: OpaquePointer?, _ fadeSeconds: Double) -> Int32 {
    cCall { () throws(CError) -> Int32 in
        let system = try handle(engine).system
        system.music.stop(fade: .seconds(try checked(fadeSeconds, "fade", in: 0...3600)))
        return SS_OK.rawValue
    }
}

/// `ss_stop_effects`: stops every effect.
/// - Parameters:
///   - engine: The handle.
///   - fadeSeconds: 0 at once; more fades out.
/// - Returns: `SS_OK` or a negative code.
@_cdecl("ss_stop_effects")
public func ssStopEffects(_ engine: OpaquePointer?, _ fadeSeconds: Double) -> Int32 {
    cCall { () throws(CError) -> Int32 in
        let system = try handle(engine).system
        system.effects.stopAll(fade: .seconds(try checked(fadeSeconds, "fade", in: 0...3600)))
        return SS_OK.rawValue
    }
}

/// `ss_set_volume`: sets a bus's volume.
/// - Parameters:
///   - engine: The handle.
///   - bus: An `ss_bus` other than `SS_BUS_DEFAULT`.
///   - gain: 0...16.
/// - Returns: `SS_OK` or a negative code.
@_cdecl("ss_set_volume")
public func ssSetVolume(_ engine: OpaquePointer?, _ bus: Int32, _ gain: Float) -> Int32 {
    cCall { () throws(CError) -> Int32 in
        let system = try handle(engine).system
        let bus = try mixBus(bus)
        let gain = try checked(gain, "gain", in: 0...16)
        do throws(AudioEngineError) { try system.engine.setVolume(gain, for: bus) } catch {
            throw .invalid(error.description)
        }
        return SS_OK.rawValue
    }
}

/// `ss_pause_all`: pauses every sound.
/// - Parameter engine: The handle.
/// - Returns: `SS_OK` or a negative code.
@_cdecl("ss_pause_all")
public func ssPauseAll(_ engine: OpaquePointer?) -> Int32 {
    cCall { () throws(CError) -> Int32 in
        try handle(engine).system.engine.pauseAll()
        return SS_OK.rawValue
    }
}

/// `ss_resume_all`: resumes what `ss_pause_all` paused.
/// - Parameter engine: The handle.
/// - Returns: `SS_OK` or a negative code.
@_cdecl("ss_resume_all")
public func ssResumeAll(_ engine: OpaquePointer?) -> Int32 {
    cCall { () throws(CError) -> Int32 in
        try handle(engine).system.engine.resumeAll()
        return SS_OK.rawValue
    }
}

/// `ss_render`: mixes the next frames of an offline engine.
/// - Parameters:
///   - engine: The handle.
///   - interleavedStereo: Room for `2 * frames` floats.
///   - frames: How many frames.
/// - Returns: `frames`, or a negative code.
@_cdecl("ss_render")
public func ssRender(
    _ engine: OpaquePointer?, _ interleavedStereo: UnsafeMutablePointer<Float>?, _ frames: Int32
)
    -> Int32
{
    cCall { () throws(CError) -> Int32 in
        let system = try handle(engine).system
        guard frames >= 0 else { throw .invalid("invalid frame count \(frames): expected 0 or more") }
        guard let interleavedStereo else { throw .invalid("the sample buffer is NULL") }
        // In pieces straight into the caller's buffer: memory stays bounded whatever `frames` is.
        let piece = 16_384
        var done = 0
        while done < Int(frames) {
            let count = min(piece, Int(frames) - done)
            let audio: PCMAudio
            do throws(AudioEngineError) { audio = try system.engine.render(frames: count) } catch {
                throw CError(
                    code: CError(error).code,
                    message:
                        "ss_render needs an engine opened with \"offline:RATE\": this one is \(system.engine.outputName)"
                )
            }
            audio.samples.withUnsafeBufferPointer { samples in
                guard let base = samples.baseAddress else { return }
                (interleavedStereo + done * 2).update(from: base, count: min(samples.count, count * 2))
            }
            done += count
        }
        return frames
    }
}

/// `ss_poll_event`: takes the oldest event.
/// - Parameters:
///   - engine: The handle.
///   - out: Filled when there is one, up to `size` bytes.
///   - size: The caller's `sizeof(ss_event)`.
/// - Returns: 1 with an event, 0 without, or a negative code.
@_cdecl("ss_poll_event")
public func ssPollEvent(_ engine: OpaquePointer?, _ out: UnsafeMutableRawPointer?, _ size: Int) -> Int32 {
    cCall { () throws(CError) -> Int32 in
        let engine = try handle(engine)
        _ = try engine.system
        guard let out else { throw .invalid("out is NULL: pass the address of an ss_event") }
        guard size > 0 else { throw .invalid("size 0: pass sizeof(ss_event)") }
        guard let record = engine.events.pop() else { return 0 }
        fill(out, size: size, with: ss_event(record))
        return 1
    }
}

/// Copies a struct the library fills into the caller's, never past the size the caller stated: an
/// older caller's shorter struct gets the fields it knows, a newer caller's longer one keeps its tail.
/// - Parameters:
///   - out: The caller's struct.
///   - size: Its size as the caller compiled it.
///   - value: The whole struct as this library knows it.
func fill<T>(_ out: UnsafeMutableRawPointer, size: Int, with value: T) {
    withUnsafeBytes(of: value) { bytes in
        out.copyMemory(from: bytes.baseAddress!, byteCount: min(size, bytes.count))
    }
}
