import CSoundStation
import SoundStation

// The C API's musical time: switches on the grid, the position to poll, the layers' intensity.
// Each is documented in soundstation.h.

/// `ss_music`: switches the music to a loaded track, from its start.
/// - Parameters:
///   - engine: The handle.
///   - name: The track.
///   - crossfadeSeconds: 0 cuts; more crossfades.
/// - Returns: `SS_OK` or a negative code.
@_cdecl("ss_music")
public func ssMusic(_ engine: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ crossfadeSeconds: Double)
    -> Int32
{
    cCall { () throws(CError) -> Int32 in
        let system = try handle(engine).system
        let name = try string(name, "name")
        try checked(crossfadeSeconds, "crossfade", in: 0...3600)
        do throws(SoundLoadError) {
            try system.music.play(name, transition: transition(crossfadeSeconds))
        } catch {
            throw CError(error)
        }
        return SS_OK.rawValue
    }
}

/// `ss_music_with`: switches the music as an `ss_music_options` says: on the grid, with a loop count.
/// - Parameters:
///   - engine: The handle.
///   - name: The track.
///   - options: The caller's options (read up to their `size`), or NULL for the defaults.
/// - Returns: `SS_OK` or a negative code.
@_cdecl("ss_music_with")
public func ssMusicWith(
    _ engine: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ options: UnsafePointer<ss_music_options>?
) -> Int32 {
    cCall { () throws(CError) -> Int32 in
        let system = try handle(engine).system
        let name = try string(name, "name")
        var o = ss_music_options()
        let read = ss_internal_read_music_options(options, &o)
        guard read == SS_OK.rawValue else {
            throw CError(code: read, message: String(cString: ss_last_error()))
        }
        try checked(o.crossfade_seconds, "crossfade_seconds", in: 0...3600)
        let (loop, repeats) = try loopCount(o.loops)
        let point: MusicQuantize
        switch o.point {
        case Int32(SS_MUSIC_NOW.rawValue): point = .now
        case Int32(SS_MUSIC_BEAT.rawValue): point = .nextBeat
        case Int32(SS_MUSIC_BAR.rawValue): point = .nextBar
        case Int32(SS_MUSIC_BARS.rawValue):
            guard o.bars >= 1 else { throw .invalid("invalid bars \(o.bars): expected 1 or more") }
            point = .bars(Int(o.bars))
        case Int32(SS_MUSIC_MARKER.rawValue):
            point = .marker(try string(o.marker, "marker"))
        default:
            throw .invalid(
                "invalid point \(o.point): expected SS_MUSIC_NOW (0), SS_MUSIC_BEAT (1), SS_MUSIC_BAR (2), "
                    + "SS_MUSIC_BARS (3) or SS_MUSIC_MARKER (4)")
        }
        do throws(MusicError) {
            try system.music.play(
                name, transition: transition(o.crossfade_seconds), at: point, loop: loop, repeats: repeats)
        } catch {
            if case .load(let load) = error { throw CError(load) }
            throw .invalid(error.description)
        }
        return SS_OK.rawValue
    }
}

/// A cut, or a crossfade of `seconds`.
private func transition(_ seconds: Double) -> MusicTransition {
    seconds > 0 ? .crossfade(.seconds(seconds)) : .cut
}

/// What an `ss_loops` count asks for: whether to loop (`nil`: as the catalogue says) and the
/// repeats when not.
/// - Throws: ``CError`` (invalid argument) for a count outside the enum and 0...1000.
func loopCount(_ loops: Int32) throws(CError) -> (loop: Bool?, repeats: Int) {
    switch loops {
    case SS_LOOPS_DEFAULT.rawValue: return (nil, 0)
    case SS_LOOPS_FOREVER.rawValue: return (true, 0)
    case 0...Int32(PlayOptions.repeatsRange.upperBound): return (false, Int(loops))
    default:
        throw .invalid(
            "invalid loops \(loops): expected 0...1000, SS_LOOPS_FOREVER (-1) or SS_LOOPS_DEFAULT (-2)")
    }
}

/// `ss_pause_music`: pauses the music alone.
/// - Parameter engine: The handle.
/// - Returns: `SS_OK` or a negative code.
@_cdecl("ss_pause_music")
public func ssPauseMusic(_ engine: OpaquePointer?) -> Int32 {
    cCall { () throws(CError) -> Int32 in
        try handle(engine).system.music.pause()
        return SS_OK.rawValue
    }
}

/// `ss_resume_music`: resumes music paused by `ss_pause_music`.
/// - Parameter engine: The handle.
/// - Returns: `SS_OK` or a negative code.
@_cdecl("ss_resume_music")
public func ssResumeMusic(_ engine: OpaquePointer?) -> Int32 {
    cCall { () throws(CError) -> Int32 in
        try handle(engine).system.music.resume()
        return SS_OK.rawValue
    }
}

/// `ss_music_position`: where the playing music is in its bars.
/// - Parameters:
///   - engine: The handle.
///   - out: Filled with bar, beat and fraction, up to `size` bytes.
///   - size: The caller's `sizeof(ss_musical_position)`.
/// - Returns: 1 when filled, 0 with no music with a tempo playing, or a negative code.
@_cdecl("ss_music_position")
public func ssMusicPosition(_ engine: OpaquePointer?, _ out: UnsafeMutableRawPointer?, _ size: Int) -> Int32 {
    cCall { () throws(CError) -> Int32 in
        let system = try handle(engine).system
        guard let out else { throw .invalid("out is NULL: pass the address of an ss_musical_position") }
        guard size > 0 else { throw .invalid("size 0: pass sizeof(ss_musical_position)") }
        guard let position = system.music.musicalPosition() else { return 0 }
        fill(
            out, size: size,
            with: ss_musical_position(
                bar: Int32(clamping: position.bar), beat: Int32(clamping: position.beat),
                fraction: position.fraction))
        return 1
    }
}

/// `ss_music_intensity`: the layered music's intensity, at once or gliding.
/// - Parameters:
///   - engine: The handle.
///   - intensity: 0...1.
///   - seconds: The glide; 0 at once.
/// - Returns: `SS_OK` or a negative code.
@_cdecl("ss_music_intensity")
public func ssMusicIntensity(_ engine: OpaquePointer?, _ intensity: Double, _ seconds: Double) -> Int32 {
    cCall { () throws(CError) -> Int32 in
        let system = try handle(engine).system
        try checked(intensity, "intensity", in: 0...1)
        try checked(seconds, "glide", in: 0...3600)
        do throws(MusicError) {
            try system.music.setIntensity(intensity, tween: Tween(.seconds(seconds)))
        } catch {
            throw .invalid(error.description)
        }
        return SS_OK.rawValue
    }
}
