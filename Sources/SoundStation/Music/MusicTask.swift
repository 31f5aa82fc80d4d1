/// A music station's change as the mixer carries it out (``Mixer/perform(_:in:events:tap:)``): the
/// change as data, with what it needs that cannot cross a process (the station, the track's entry
/// and buffer), never a closure into the engine.
struct MusicTask: Sendable {
    /// What changes.
    enum Change: Sendable {
        /// Switch to a track: the old one's voices stop (or fade), the new one's start on one frame.
        case play(Switch)
        /// Stop the music, at once (`fade` 0) or fading out over `fade` seconds.
        case stop(fade: Double)
        /// Pause the music's voices where they are.
        case pause
        /// Resume them.
        case resume
        /// Glide the playing track's stems to their gains at an intensity.
        case intensity(Double, TweenSpec)
        /// Change the music's speed through its time-stretcher, gliding over `seconds`.
        case speed(Double, seconds: Double)
    }

    /// A switch to a track. A struct rather than the case's payload as a tuple: copying a tuple that
    /// holds an optional class builds its type's metadata at run time on first use, thousands of
    /// instructions that landed on a game's first `music.play`.
    struct Switch: Sendable {
        /// The track as the bank holds it.
        var track: MusicStation.Track
        var transition: MusicTransition
        var position: MusicStation.StartPosition
        /// The call's loop and repeats, over the entry's (`nil` keeps the entry's).
        var loop: Bool?
        var repeats: Int?

        /// The track's entry with the call's loop and repeats: made on the mixing side, so the
        /// caller copies no entry.
        var entry: SoundEntry {
            var entry = track.entry
            if let loop { entry.loop = loop }
            if let repeats { entry.repeats = entry.loop ? 0 : repeats }
            return entry
        }
    }

    /// The station whose music changes.
    let station: MusicStation
    let change: Change
    /// The engine frame the change is due at; `nil` for now.
    let frame: Int64?

    /// The task as the mixer keeps it until its frame: holding the station weakly, since the
    /// station holds the engine (through its bank), so a change that waits does not happen if the
    /// station is freed first.
    var later: Later { Later(station: station, change: change) }

    /// A task waiting for its frame in the mixer's scheduled calls.
    struct Later: @unchecked Sendable {
        // `@unchecked`: a weak reference to a Sendable class, read only by the mixer.
        weak var station: MusicStation?
        let change: Change
    }
}

/// What the mixer runs when the clock reaches a frame (``EngineState/calls``).
enum ScheduledCall: Sendable {
    /// A closure of ``AudioEngine/schedule(at:_:)`` (or a music station's next beat).
    case closure(@Sendable () -> Void)
    /// An engine command sent for this frame (``MixerTask/timed(_:frame:)``).
    case command(EngineCommand)
    /// A music station's change that waits for its frame (a switch on the grid, a later stop).
    case music(MusicTask.Later)
}
