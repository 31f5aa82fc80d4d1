import CSoundStation
import SoundStation

/// The one path from `ss_play` into the engine.
///
/// For now it looks the sound up under a lock and plays it through the effect station by name (a
/// catalogue sound, so its limits apply) or through the engine (an `ss_load_file` sound): neither is
/// async-signal-safe yet. The header promises that `ss_play` of a preloaded sound is; this body is
/// the place to put a path that keeps the promise (a ring of triggers the mixer drains).
/// - Parameters:
///   - engine: The open engine.
///   - id: A sound id from `ss_sound_id` or `ss_load_file`.
///   - volume: Gain, 0...16, times the catalogue's.
///   - pitch: Speed, 1/16...16.
///   - pan: -1 left ... 1 right.
/// - Returns: `SS_OK`, `SS_REFUSED`, or a negative `SS_ERR_*` with `ss_last_error()` set.
func trigger(_ engine: CEngine, id: Int32, volume: Float, pitch: Float, pan: Float) -> Int32 {
    cCall { () throws(CError) -> Int32 in
        try checkPlay(volume: volume, pitch: pitch, pan: pan)
        let (system, sound) = try engine.sound(id)
        return try start(sound, in: system, volume: volume, pitch: pitch, pan: pan, at: nil)
    }
}

/// Checks the numbers `ss_play` and `ss_play_at` take.
/// - Throws: ``CError`` (invalid argument) naming the first bad one.
func checkPlay(volume: Float, pitch: Float, pan: Float) throws(CError) {
    try checked(volume, "volume", in: 0...16)
    try checked(pitch, "pitch", in: 0.0625...16)
    try checked(pan, "pan", in: -1...1)
}

/// Starts a loaded sound now or at a time on the engine clock.
/// - Parameters:
///   - sound: The sound.
///   - system: The engine's system.
///   - volume: Gain.
///   - pitch: Speed.
///   - pan: Position.
///   - time: Seconds on the engine clock, or `nil` for now.
/// - Returns: `SS_OK` when a voice plays it, `SS_REFUSED` when its limit or the pool refused it.
/// - Throws: ``CError`` when the catalogue sound is not loaded.
func start(
    _ sound: SoundTable.Sound, in system: SoundSystem, volume: Float, pitch: Float, pan: Float,
    at time: Double?
) throws(CError) -> Int32 {
    let voice: VoiceHandle?
    if let buffer = sound.file {
        let options = PlayOptions(volume: volume, pitch: pitch, pan: pan)
        voice = system.engine.play(buffer, options: options, at: time)
    } else {
        do throws(SoundLoadError) {
            voice = try system.effects.play(sound.name, volume: volume, pitch: pitch, pan: pan, at: time)
        } catch {
            throw CError(error)
        }
    }
    return voice == nil ? Int32(SS_REFUSED) : Int32(SS_OK)
}
