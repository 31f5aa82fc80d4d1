/// Something that happened to a sound, reported through ``AudioEngine/events()`` and
/// ``AudioEngine/onEvent(_:)``.
public enum SoundEvent: Sendable, Equatable {
    /// A voice began to play `sound` at `time` seconds on the engine clock.
    case started(VoiceHandle, sound: String, time: Duration)
    /// A voice is done with `sound`; `reason` says why.
    case finished(VoiceHandle, sound: String, reason: FinishReason, time: Duration)
    /// A trigger could not get a voice: its sound's instance limit refused it, every voice was busy
    /// with sounds that matter more, or the sound was unloaded before the mixer reached it. The
    /// handle is the one the trigger returned; it is never active.
    case refused(VoiceHandle, sound: String, time: Duration)
    /// The output device went away (unplugged, or its sound server stopped). The game goes on; the
    /// engine tries to reopen it every second.
    case deviceLost(reason: String, time: Duration)
    /// The device is back: sounds were uploaded again and looping music resumed where it was.
    case deviceRestored(device: String, time: Duration)

    /// Why a voice stopped.
    public enum FinishReason: String, Sendable, Equatable {
        /// It played to its end.
        case ended
        /// Somebody stopped it.
        case stopped
        /// A sound of higher priority took its voice.
        case stolen
        /// The device was lost while it played (one-shots are not replayed after a reopen).
        case deviceLost
    }
}
