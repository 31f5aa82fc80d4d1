import CSoundStation
import SoundStation

/// Checks the numbers `ss_play` and `ss_play_at` take.
/// - Throws: ``CError`` (invalid argument) naming the first bad one.
func checkPlay(volume: Float, pitch: Float, pan: Float) throws(CError) {
    try checked(volume, "volume", in: PlayOptions.volumeRange)
    try checked(pitch, "pitch", in: PlayOptions.pitchRange)
    try checked(pan, "pan", in: PlayOptions.panRange)
}

/// Starts a loaded sound now or at a time on the engine clock.
/// - Parameters:
///   - sound: The sound.
///   - system: The engine's system.
///   - volume: Gain.
///   - pitch: Speed.
///   - pan: Position.
///   - time: A time on the engine clock, or `nil` for now.
/// - Returns: `SS_OK` when a voice plays it, `SS_REFUSED` when its limit or the pool refused it.
/// - Throws: ``CError`` when the catalogue sound is not loaded.
func start(
    _ sound: SoundTable.Sound, in system: SoundSystem, volume: Float, pitch: Float, pan: Float,
    at time: Duration?
) throws(CError) -> Int32 {
    let voice: VoiceHandle?
    if let buffer = sound.file {
        let options = PlayOptions(volume: volume, pitch: pitch, pan: pan)
        do throws(AudioEngineError) {
            voice = try system.engine.play(buffer, options: options, at: time)
        } catch {
            throw CError(error)
        }
    } else {
        do throws(SoundLoadError) {
            voice = try system.effects.play(sound.name, volume: volume, pitch: pitch, pan: pan, at: time)
        } catch {
            throw CError(error)
        }
    }
    return voice == nil ? SS_REFUSED.rawValue : SS_OK.rawValue
}
