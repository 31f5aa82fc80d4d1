/// Music at another speed without another pitch: a racing game's last lap, bullet-time.
extension MusicStation {
    /// The music's speed: 1 as recorded (until set), 0.5...2. It is the value last set (a glide
    /// towards it may still be under way); tracks started later play at it too.
    public var speed: Double { state.withLock { $0.speed } }

    /// Plays the music faster or slower without changing its pitch, at once or gliding linearly.
    ///
    /// The track and its stems play through one time-stretcher (SoundTouch), as the channels of one
    /// signal, so the stems stay aligned to the sample. The track's grid follows: its beats and bars
    /// come at the new tempo, and ``musicalPosition(at:)``, beat events and switches on the next beat
    /// or bar reckon with the speed, its glide included. A glide changes the speed every few
    /// milliseconds, so it is heard without a click.
    ///
    /// The first change of a track from speed 1 moves it onto the filtered path from where it is;
    /// on a device a later change is heard after what is already queued (about 100 ms), and the grid
    /// changes from that frame too. A track under a cutoff filter of its own gets the speed from its
    /// next start. A seek of a stretched voice is not followed (the stretcher reads on from where
    /// it was); the position kept for a later ``StartPosition/resume`` is the stretcher's input
    /// position, ahead of what is heard by what the stretcher and its queue hold (about 100 ms).
    /// Returns at once.
    /// - Parameters:
    ///   - speed: 0.5...2; 1 as recorded.
    ///   - tween: How long the glide takes; `.zero` (the default) changes at once.
    /// - Throws: ``MusicError/invalidSpeed(_:)`` outside 0.5...2 or not finite;
    ///   ``MusicError/invalidGlide(_:)`` for a negative duration.
    public func setSpeed(_ speed: Double, tween: Duration = .zero) throws(MusicError) {
        guard speed.isFinite, StretchGroup.speedRange.contains(speed) else { throw .invalidSpeed(speed) }
        guard tween >= .zero else { throw .invalidGlide(tween) }
        submit(.setMusicSpeed(speed, tween: tween))
    }
}
