import CSoundStation
import SoundStation

// The C API's musical time: switches on the grid, the position to poll, the layers' intensity.
// Each is documented in soundstation.h.

/// `ss_music_at`: switches the music on the playing track's next beat, bar, bars or marker.
/// - Parameters:
///   - engine: The handle.
///   - name: The track.
///   - crossfadeSeconds: 0 cuts; more crossfades (from the grid point).
///   - at: `now`, `beat`, `bar`, `bars=N` or `marker=NAME`.
/// - Returns: `SS_OK` or a negative code.
@_cdecl("ss_music_at")
public func ssMusicAt(
    _ engine: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ crossfadeSeconds: Double,
    _ at: UnsafePointer<CChar>?
) -> Int32 {
    cCall { () throws(CError) -> Int32 in
        let system = try handle(engine).system
        let name = try string(name, "name")
        try checked(crossfadeSeconds, "crossfade", in: 0...3600)
        let spelling = try string(at, "at")
        guard let point = MusicQuantize(spelling: spelling) else {
            throw .invalid("at \"\(spelling)\": use now, beat, bar, bars=N (N 1 or more) or marker=NAME")
        }
        do throws(MusicError) {
            try system.music.play(
                name, transition: crossfadeSeconds > 0 ? .crossfade(.seconds(crossfadeSeconds)) : .cut,
                at: point)
        } catch {
            if case .load(let load) = error { throw CError(load) }
            throw .invalid(error.description)
        }
        return Int32(SS_OK)
    }
}

/// `ss_music_position`: where the playing music is in its bars.
/// - Parameters:
///   - engine: The handle.
///   - out: Filled with bar, beat and fraction.
/// - Returns: 1 when filled, 0 with no music with a tempo playing, or a negative code.
@_cdecl("ss_music_position")
public func ssMusicPosition(_ engine: OpaquePointer?, _ out: UnsafeMutablePointer<ss_musical_position>?)
    -> Int32
{
    cCall { () throws(CError) -> Int32 in
        let system = try handle(engine).system
        guard let out else { throw .invalid("out is NULL: pass the address of an ss_musical_position") }
        guard let position = system.music.musicalPosition() else { return 0 }
        out.pointee = ss_musical_position(
            bar: Int32(clamping: position.bar), beat: Int32(clamping: position.beat),
            fraction: position.fraction)
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
        return Int32(SS_OK)
    }
}
