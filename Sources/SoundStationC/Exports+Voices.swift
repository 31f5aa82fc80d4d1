import CSoundStation
@_spi(Bindings) import SoundStation

// The C API's voices: one play's handle, to stop, pause or change that sound while it plays. Each is
// documented in soundstation.h. `ss_play_voice` is written in C (Sources/CSoundStation/play.c), on
// the same lock-free path as `ss_play`.

/// The engine and handle a C voice names.
/// - Parameters:
///   - engine: The handle.
///   - voice: A ticket from `ss_play_voice` (or an event).
/// - Returns: The system and the voice's handle.
/// - Throws: ``CError`` for a closed engine, voice 0, or a voice this engine never gave.
private func voiceOf(_ engine: OpaquePointer?, _ voice: UInt64) throws(CError) -> (SoundSystem, VoiceHandle) {
    let engine = try handle(engine)
    let system = try engine.system
    guard voice != 0 else { throw .invalid("voice 0 is no voice: pass a handle from ss_play_voice") }
    guard ss_internal_engine_gave(engine.cHandle, voice) != 0 else {
        _ = try engine.system  // closed meanwhile: say so rather than "never given"
        throw .invalid("voice \(voice) was never given by this engine: pass a handle from its ss_play_voice")
    }
    return (system, VoiceHandle.bound(ticket: voice))
}

/// A tween of `seconds` (`nil` for at once), checked.
private func tween(_ seconds: Double) throws(CError) -> Tween? {
    try checked(seconds, "tween", in: 0...3600)
    return seconds > 0 ? Tween(.seconds(seconds)) : nil
}

/// `ss_voice_stop`: stops one voice, at once or fading out.
/// - Parameters:
///   - engine: The handle.
///   - voice: The voice.
///   - fadeSeconds: 0 at once.
/// - Returns: `SS_OK` or a negative code.
@_cdecl("ss_voice_stop")
public func ssVoiceStop(_ engine: OpaquePointer?, _ voice: UInt64, _ fadeSeconds: Double) -> Int32 {
    cCall { () throws(CError) -> Int32 in
        let (system, voice) = try voiceOf(engine, voice)
        let fade = try checked(fadeSeconds, "fade", in: 0...3600)
        system.engine.stop(voice, fade: .seconds(fade))
        return SS_OK.rawValue
    }
}

/// `ss_voice_set_volume`: one voice's volume, at once or gliding.
/// - Parameters:
///   - engine: The handle.
///   - voice: The voice.
///   - volume: 0...16.
///   - tweenSeconds: 0 at once.
/// - Returns: `SS_OK` or a negative code.
@_cdecl("ss_voice_set_volume")
public func ssVoiceSetVolume(
    _ engine: OpaquePointer?, _ voice: UInt64, _ volume: Float, _ tweenSeconds: Double
)
    -> Int32
{
    cCall { () throws(CError) -> Int32 in
        let (system, voice) = try voiceOf(engine, voice)
        try checked(volume, "volume", in: PlayOptions.volumeRange)
        if let tween = try tween(tweenSeconds) {
            try? system.engine.setVolume(volume, for: voice, tween: tween)
        } else {
            try? system.engine.setVolume(volume, for: voice)
        }
        return SS_OK.rawValue
    }
}

/// `ss_voice_set_pitch`: one voice's pitch, at once or gliding.
/// - Parameters:
///   - engine: The handle.
///   - voice: The voice.
///   - pitch: 0.0625...16.
///   - tweenSeconds: 0 at once.
/// - Returns: `SS_OK` or a negative code.
@_cdecl("ss_voice_set_pitch")
public func ssVoiceSetPitch(_ engine: OpaquePointer?, _ voice: UInt64, _ pitch: Float, _ tweenSeconds: Double)
    -> Int32
{
    cCall { () throws(CError) -> Int32 in
        let (system, voice) = try voiceOf(engine, voice)
        try checked(pitch, "pitch", in: PlayOptions.pitchRange)
        if let tween = try tween(tweenSeconds) {
            try? system.engine.setPitch(pitch, for: voice, tween: tween)
        } else {
            try? system.engine.setPitch(pitch, for: voice)
        }
        return SS_OK.rawValue
    }
}

/// `ss_voice_set_pan`: one voice's pan, at once or gliding.
/// - Parameters:
///   - engine: The handle.
///   - voice: The voice.
///   - pan: -1...1.
///   - tweenSeconds: 0 at once.
/// - Returns: `SS_OK` or a negative code.
@_cdecl("ss_voice_set_pan")
public func ssVoiceSetPan(_ engine: OpaquePointer?, _ voice: UInt64, _ pan: Float, _ tweenSeconds: Double)
    -> Int32
{
    cCall { () throws(CError) -> Int32 in
        let (system, voice) = try voiceOf(engine, voice)
        try checked(pan, "pan", in: PlayOptions.panRange)
        if let tween = try tween(tweenSeconds) {
            try? system.engine.setPan(pan, for: voice, tween: tween)
        } else {
            try? system.engine.setPan(pan, for: voice)
        }
        return SS_OK.rawValue
    }
}

/// `ss_voice_pause`: pauses one voice where it is.
/// - Parameters:
///   - engine: The handle.
///   - voice: The voice.
/// - Returns: `SS_OK` or a negative code.
@_cdecl("ss_voice_pause")
public func ssVoicePause(_ engine: OpaquePointer?, _ voice: UInt64) -> Int32 {
    cCall { () throws(CError) -> Int32 in
        let (system, voice) = try voiceOf(engine, voice)
        system.engine.pause(voice)
        return SS_OK.rawValue
    }
}

/// `ss_voice_resume`: resumes a voice `ss_voice_pause` paused.
/// - Parameters:
///   - engine: The handle.
///   - voice: The voice.
/// - Returns: `SS_OK` or a negative code.
@_cdecl("ss_voice_resume")
public func ssVoiceResume(_ engine: OpaquePointer?, _ voice: UInt64) -> Int32 {
    cCall { () throws(CError) -> Int32 in
        let (system, voice) = try voiceOf(engine, voice)
        system.engine.resume(voice)
        return SS_OK.rawValue
    }
}

/// `ss_voice_is_playing`: whether a voice still holds its sound.
/// - Parameters:
///   - engine: The handle.
///   - voice: The voice.
/// - Returns: 1, 0, or a negative code.
@_cdecl("ss_voice_is_playing")
public func ssVoiceIsPlaying(_ engine: OpaquePointer?, _ voice: UInt64) -> Int32 {
    cCall { () throws(CError) -> Int32 in
        let (system, voice) = try voiceOf(engine, voice)
        return system.engine.isActive(voice) ? 1 : 0
    }
}
