/// One change a game asks of the engine: the vocabulary of the one command path.
///
/// Every mutation in the API (a trigger, a stop, a volume, a filter, a music switch) is checked on
/// the caller's thread and then written as one `EngineCommand`; the mixing side carries the commands
/// out in the order they were written. Because they are plain values with a stable binary encoding
/// (``encoded()``, ``init(decoding:)``), the same commands can be sent to another process: a remote
/// engine forwards them, each with its engine-clock frame, to the player's side, which mixes them.
///
/// Times are frames of the engine clock (`round(seconds * sampleRate)`), so a command acts at the same
/// sample wherever it is carried out; lengths (fades, glides, tweens) are ``Duration``s.
package enum EngineCommand: Sendable, Equatable {
    /// Starts `sound` as `voice` with `options`, at `frame` (`nil`: at once).
    case play(voice: VoiceHandle, sound: SoundID, options: PlayOptions, frame: Int64?)
    /// Stops a voice at once (`fade` zero) or fading out.
    case stop(VoiceHandle, fade: Duration)
    /// Stops every voice, or those on one bus.
    case stopAll(bus: Bus?, fade: Duration)
    /// Pauses one voice where it is.
    case pause(VoiceHandle)
    /// Resumes a voice paused by ``pause(_:)``.
    case resume(VoiceHandle)
    /// Pauses every sound (the game's pause menu).
    case pauseAll
    /// Resumes what ``pauseAll`` paused.
    case resumeAll
    /// Sets a voice's volume, pitch or pan at once (`tween` nil) or along a tween.
    case setVoice(VoiceHandle, VoiceParameter, Float, tween: TweenSpec?)
    /// Moves a voice in the game's space.
    case setPosition(VoiceHandle, SoundPosition, glide: Duration)
    /// Sets (or with nil removes) a voice's own filter.
    case setVoiceFilter(VoiceHandle, SoundFilter?, glide: Duration)
    /// Moves a streamed or loaded voice to a frame of its sound.
    case seek(VoiceHandle, frame: Int)
    /// Sets a bus's volume, gliding briefly (`tween` nil) or along a tween.
    case setBusVolume(Bus, Float, tween: TweenSpec?)
    /// Mutes or unmutes a bus.
    case setBusMuted(Bus, Bool)
    /// Sets (or removes) a bus's filter.
    case setBusFilter(Bus, SoundFilter?, glide: Duration)
    /// Sets (or removes) a bus's reverb.
    case setBusReverb(Bus, Reverb?)
    /// How music ducks under voice notes and loud effects.
    case setDucking(Ducking)
    /// Moves the listener.
    case setListener(SoundPosition, glide: Duration)
    /// The terminal's space: its width and the distance model.
    case setSpatialLayout(SpatialLayout)
    /// HRTF on or off (the device is reset with it).
    case setHRTF(Bool)
    /// Switches the music to `sound` (a track of the catalogue) at `frame` (`nil`: at once), looping
    /// and repeating as the call asked (`nil`: as the track's catalogue entry says).
    case playMusic(
        sound: SoundID, transition: MusicTransition, from: MusicStation.StartPosition, frame: Int64?,
        loop: Bool? = nil, repeats: Int? = nil)
    /// Stops the music at `frame` (`nil`: at once), fading out over `fade`.
    case stopMusic(fade: Duration, frame: Int64?)
    /// Pauses the music alone.
    case pauseMusic
    /// Resumes the music.
    case resumeMusic
    /// Moves a layered track's intensity (0...1) along a tween.
    case setIntensity(Double, tween: TweenSpec)
    /// The music's speed without pitch, gliding linearly over `tween`.
    case setMusicSpeed(Double, tween: Duration)

    /// The voice a command changes, for the commands that change one voice.
    package var voice: VoiceHandle? {
        switch self {
        case .stop(let voice, _), .pause(let voice), .resume(let voice), .setVoice(let voice, _, _, _),
            .setPosition(let voice, _, _), .setVoiceFilter(let voice, _, _), .seek(let voice, _):
            voice
        case .play, .stopAll, .pauseAll, .resumeAll, .setBusVolume, .setBusMuted, .setBusFilter,
            .setBusReverb, .setDucking, .setListener, .setSpatialLayout, .setHRTF, .playMusic, .stopMusic,
            .pauseMusic, .resumeMusic, .setIntensity, .setMusicSpeed:
            nil
        }
    }

    /// Which of a voice's parameters ``EngineCommand/setVoice(_:_:_:tween:)`` changes.
    package enum VoiceParameter: UInt8, Sendable, Equatable, CaseIterable {
        /// Linear gain before fades and buses.
        case volume
        /// Playback speed.
        case pitch
        /// Left (-1) to right (1).
        case pan
    }
}

/// A ``Tween`` with its start resolved to the engine clock, as a command carries it (a start on the
/// musical grid is turned into a time when the call is made).
package struct TweenSpec: Sendable, Equatable {
    /// How long the change takes.
    package var duration: Duration
    /// The curve it follows.
    package var easing: Easing
    /// When it starts on the engine clock; `nil` when the command is carried out.
    package var start: Duration?

    /// A resolved tween.
    /// - Parameters:
    ///   - duration: How long the change takes.
    ///   - easing: The curve it follows.
    ///   - start: When it starts on the engine clock; `nil` at once.
    package init(duration: Duration, easing: Easing = .linear, start: Duration? = nil) {
        self.duration = duration
        self.easing = easing
        self.start = start
    }

    /// `tween` with its start resolved (a musical start becomes the time it names).
    /// - Throws: ``TweenError`` for a negative length or a start the grid cannot name.
    init(_ tween: Tween) throws(TweenError) {
        _ = try tween.seconds()
        self.init(duration: tween.duration, easing: tween.easing, start: try tween.startTime())
    }
}
