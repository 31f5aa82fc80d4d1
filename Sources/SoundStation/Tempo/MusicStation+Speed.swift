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
        state.withLock { $0.speed = speed }
        engine.submit(
            .station(.setMusicSpeed(speed, tween: tween)) { [self] in
                applySpeed(speed, seconds: tween.inSeconds)
            })
    }

    /// Carries out a change of speed on the mixing side.
    private func applySpeed(_ speed: Double, seconds: Double) {
        let (playing, _) = playingTrack()
        guard let playing else { return }
        let rate = Double(engine.sampleRate)
        let glide = Int64((seconds * rate).rounded())
        let now = currentFrame
        let group: StretchGroup
        let from: Int64
        if let stretch = playing.stretch {
            group = stretch
            // The stretcher's next samples are heard once the ones already made have played.
            from = now + (engine.stretchLatency(of: playing.voice) ?? 0)
        } else {
            group = StretchGroup(members: playing.voices.count, speed: 1)
            from = now
        }
        group.setSpeed(speed, overFrames: Int((seconds * Double(group.sampleRate)).rounded()))
        if playing.stretch == nil { engine.engageStretch(playing.voices, group: group) }
        state.withLock { state in
            guard state.playing?.voice == playing.voice else { return }
            state.playing?.stretch = group
            state.playing?.anchor.respeed(at: from, to: speed, over: glide, grid: playing.grid)
            state.generation &+= 1
        }
        scheduleNextBeat(after: nil)
    }
}
