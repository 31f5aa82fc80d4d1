import CSoundStation
import SoundStation

/// `ss_set_music_speed`: the music's speed without its pitch, at once or gliding.
/// - Parameters:
///   - engine: The handle.
///   - speed: 0.5...2.
///   - tweenSeconds: The glide; 0 at once.
/// - Returns: `SS_OK` or a negative code.
@_cdecl("ss_set_music_speed")
public func ssSetMusicSpeed(_ engine: OpaquePointer?, _ speed: Double, _ tweenSeconds: Double) -> Int32 {
    cCall { () throws(CError) -> Int32 in
        let system = try handle(engine).system
        try checked(speed, "music speed", in: 0.5...2)
        try checked(tweenSeconds, "tween_seconds", in: 0...3600)
        do throws(MusicError) {
            try system.music.setSpeed(speed, tween: .seconds(tweenSeconds))
        } catch {
            throw .invalid(error.description)
        }
        return SS_OK.rawValue
    }
}
