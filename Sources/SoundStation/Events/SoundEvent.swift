/// Something that happened to a sound, reported through ``AudioEngine/events()`` and
/// ``AudioEngine/onEvent(_:)``.
public enum SoundEvent: Sendable, Equatable {
    /// A voice began to play `sound` at `time` on the engine clock (offline: its exact frame).
    case started(VoiceHandle, sound: String, time: Duration)
    /// A voice is done with `sound`; `reason` says why.
    case finished(VoiceHandle, sound: String, reason: FinishReason, time: Duration)
    /// A trigger could not get a voice: its sound's instance limit refused it, every voice was busy
    /// with sounds that matter more, or the sound was unloaded before the mixer reached it. The
    /// handle is the one the trigger returned; it is never active.
    case refused(VoiceHandle, sound: String, time: Duration)
    /// A trigger arrived within its sound's `coalesceMs` of another start of the same sound and was
    /// folded into that voice (`into`) instead of starting one of its own: no `started` or
    /// `finished` follows for its handle, which plays and ends as `into` does.
    case coalesced(VoiceHandle, sound: String, into: VoiceHandle, time: Duration)
    /// The output device went away (unplugged, or its sound server stopped). The game goes on; the
    /// engine tries to reopen it every second.
    case deviceLost(reason: String, time: Duration)
    /// The device is back: sounds were uploaded again and looping music resumed where it was.
    case deviceRestored(device: String, time: Duration)
    /// What OpenAL reports of HRTF after the mixer carried out ``AudioEngine/setHRTF(_:)``, or after
    /// a reopened device reported otherwise than the lost one; ``AudioEngine/hrtfStatus`` reads the
    /// same from then on.
    case hrtf(HRTFStatus, time: Duration)
    /// A loaded sound was loaded again because its file or its catalogue entry was edited
    /// (``SoundBank/watch(settle:)``): its next start plays the new version under the same
    /// ``SoundID``, and voices already playing it finish as they began. `file` is its file relative to
    /// the assets root; `warnings` says what is wrong with a new file that loaded anyway (e.g. one cut
    /// short). Sent from the watch's thread, so it carries no time on the engine clock.
    case reloaded(sound: String, file: String, warnings: [AudioDecodingWarning])
    /// An edit could not be loaded: a sound file that does not decode, a `catalogue.json` that does
    /// not parse, or settings the file cannot satisfy. `file` is the edited file relative to the assets
    /// root (`catalogue.json` for the manifest) and `error` what loading it says, naming the file. The
    /// version loaded before keeps playing.
    case reloadFailed(file: String, error: SoundLoadError)
    /// `catalogue.json` was edited and read again: `added` names its new entries (load them to play
    /// them), `removed` the entries it no longer has (one that is loaded keeps playing as it was until
    /// it is unloaded). Changed loaded sounds are reported each by ``reloaded(sound:file:warnings:)``.
    case catalogueReloaded(added: [String], removed: [String])

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
