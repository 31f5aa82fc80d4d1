/// The playing track's musical time: where it is in its bars, when its next beat, bar or marker
/// comes, switches that wait for them, and its beats as events.
extension MusicStation: MusicTimeline {
    /// The engine clock's frame now.
    var currentFrame: Int64 { engine.frameNow }

    /// The playing track (its anchor moved to the frame its voice really began on, once it has),
    /// and the frame the music was paused at.
    func playingTrack() -> (Playing?, pausedAt: Int64?) {
        let voice = state.withLock { $0.playing?.confirmed == false ? $0.playing?.voice : nil }
        // Asked outside the station's lock: the mixer is never waited for inside it.
        let started = voice.flatMap { engine.startedFrame(of: $0) }
        return state.withLock { state in
            if let started, var playing = state.playing, playing.voice == voice, !playing.confirmed {
                playing.anchor.frame += started - playing.switchFrame
                playing.confirmed = true
                state.playing = playing
            }
            return (state.playing, state.pausedAt)
        }
    }

    /// Switches to `name` on the playing track's grid: at its next beat, bar, multiple of bars or
    /// marker, to the frame (offline; within a driver round on a device). A crossfade starts there.
    ///
    /// With no music playing the switch happens at once.
    /// - Parameters:
    ///   - name: A preloaded music entry.
    ///   - transition: Cut, fade in, or crossfade from the current track.
    ///   - position: Where the new track starts: by default its own first downbeat.
    ///   - point: The point of the playing track's grid to switch on.
    ///   - loop: Whether the track starts again at its end; `nil` as its catalogue entry says.
    ///   - repeats: When it does not loop: whole passes after its first.
    /// - Throws: ``MusicError/load(_:)`` for a sound that is unknown or not loaded or a marker its
    ///   entry lacks; ``MusicError/noTempo(track:)`` when the playing track has no tempo for a beat or
    ///   bar point; ``MusicError/invalidBars(_:)``.
    public func play(
        _ name: String, transition: MusicTransition = .cut, from position: StartPosition = .downbeat,
        at point: MusicQuantize, loop: Bool? = nil, repeats: Int = 0
    ) throws(MusicError) {
        do { _ = try loadedTrack(name) } catch { throw .load(error) }
        let time = try time(of: point)
        do {
            try play(name, transition: transition, from: position, at: time, loop: loop, repeats: repeats)
        } catch {
            throw .load(error)
        }
    }

    /// Switches to a track named by a typed resource on the playing track's grid.
    /// - Parameters:
    ///   - track: A ``SoundResource`` whose catalogue name is a music entry.
    ///   - transition: Cut, fade in, or crossfade.
    ///   - position: Where the new track starts: by default its first downbeat.
    ///   - point: The grid point to switch on.
    /// - Throws: As ``play(_:transition:from:at:)-(String,_,_,MusicQuantize)``.
    public func play(
        _ track: some SoundResource, transition: MusicTransition = .cut,
        from position: StartPosition = .downbeat, at point: MusicQuantize
    ) throws(MusicError) {
        try play(track.catalogueName as String, transition: transition, from: position, at: point)
    }

    /// The engine-clock time of the playing track's next beat, bar, multiple of bars or marker, at or
    /// after now.
    /// - Parameter point: The point.
    /// - Returns: The time on the engine clock; `nil` for `.now` or when no music plays. A track that
    ///   plays once and ends before the point gives its end.
    /// - Throws: ``MusicError/noTempo(track:)``, ``MusicError/invalidBars(_:)``, or
    ///   ``MusicError/load(_:)`` wrapping ``CatalogueError/unknownMarker(name:marker:known:)``.
    public func time(of point: MusicQuantize) throws(MusicError) -> Duration? {
        guard point != .now else { return nil }
        let now = currentFrame
        let (playing, pausedAt) = playingTrack()
        guard let playing else { return nil }
        var anchor = playing.anchor
        // Paused, the grid is reckoned as if the music went on from now.
        if let pausedAt { anchor.frame += now - pausedAt }
        let frame = try Self.frame(of: point, in: playing.grid, anchor: anchor, from: now)
        return .frames(frame, rate: engine.sampleRate)
    }

    /// Where the playing track is in its bars at `time` (now by default), through loops.
    /// - Parameter time: A time on the engine clock, at or after the track's start.
    /// - Returns: `nil` when no music plays or the track has no tempo.
    public func musicalPosition(at time: Duration? = nil) -> MusicPosition? {
        let frame = time.map(engine.frame(for:)) ?? currentFrame
        let (playing, pausedAt) = playingTrack()
        guard let playing, let tempo = playing.grid.tempo else { return nil }
        // Paused, it stays where it stopped.
        let at = pausedAt.map { min($0, frame) } ?? frame
        let unwrapped = playing.anchor.unwrapped(atFrame: at, grid: playing.grid)
        return MusicPosition(
            beats: playing.grid.beats(atUnwrapped: unwrapped, tempo: tempo), beatsPerBar: tempo.beatsPerBar)
    }

    /// A stream of the playing track's beats from now on, one per beat, in order, each sent when the
    /// engine clock reaches it (offline: at its exact frame).
    /// - Returns: An independent stream; it ends when the station is freed.
    public func beats() -> AsyncStream<MusicBeat> { beatHub.stream() }

    /// Calls `handler` on each beat of the playing track (on the thread that runs the engine's
    /// scheduled calls: the driver thread, or the rendering thread offline; keep it short).
    /// - Parameter handler: The closure.
    /// - Returns: A subscription whose `cancel()` stops the calls.
    @discardableResult
    public func onBeat(_ handler: @escaping @Sendable (MusicBeat) -> Void) -> EventSubscription {
        beatHub.add(handler)
    }

    /// The engine frame of the first point at or after `from`.
    static func frame(
        of point: MusicQuantize, in grid: TrackGrid, anchor: GridAnchor, from now: Int64
    ) throws(MusicError) -> Int64 {
        if case .bars(let count) = point, count < 1 { throw .invalidBars(count) }
        let start = anchor.unwrapped(atFrame: now, grid: grid)
        let end = anchor.frame(ofUnwrapped: Double(grid.frameCount), grid: grid)
        if case .marker(let marker) = point {
            guard let seconds = grid.markers[marker] else {
                throw .load(
                    .catalogue(
                        .unknownMarker(name: grid.name, marker: marker, known: Array(grid.markers.keys))))
            }
            let found = grid.next(origin: seconds * grid.trackRate, step: nil, from: start)
            return found.map { anchor.frame(ofUnwrapped: $0.unwrapped, grid: grid) } ?? end
        }
        guard let tempo = grid.tempo else { throw .noTempo(track: grid.name) }
        let origin = tempo.downbeat * grid.trackRate
        let beat = tempo.secondsPerBeat * grid.trackRate
        let bar = beat * Double(tempo.beatsPerBar)
        switch point {
        case .nextBeat:
            let found = grid.next(origin: origin, step: beat, from: start)
            return found.map { anchor.frame(ofUnwrapped: $0.unwrapped, grid: grid) } ?? end
        case .nextBar, .bars:
            var every = 1
            if case .bars(let count) = point { every = count }
            var from = start
            while let found = grid.next(origin: origin, step: bar, from: from) {
                let index = grid.beatIndex(at: found.at, k: found.k, tempo: tempo) / tempo.beatsPerBar
                if index.isMultiple(of: every) {
                    return anchor.frame(ofUnwrapped: found.unwrapped, grid: grid)
                }
                // Positions run on linearly in bars through loops (loop bodies are whole bars), so
                // jump straight to the next multiple instead of walking there bar by bar.
                var remainder = index % every
                if remainder < 0 { remainder += every }
                let target = found.unwrapped + Double(every - remainder) * bar
                guard target < 1e15 else { throw .unreachableBars(every) }
                from = max(found.unwrapped + 0.5, target - bar / 2)
            }
            return end
        case .now, .marker:
            return now
        }
    }

    /// Schedules the playing track's next beat event: the first beat at or after now (`after` nil),
    /// or after the beat at unwrapped position `after`. Each one schedules the next, until a switch,
    /// stop or pause moves the generation on.
    func scheduleNextBeat(after previous: Double?) {
        _ = playingTrack()
        guard let due = nextBeat(after: previous, now: currentFrame) else { return }
        engine.schedule(atFrame: due.frame, beatCall(due))
    }

    /// ``scheduleNextBeat(after:)`` from now, on the mixer, in the pass that changed the track (a
    /// switch, a resume, a speed): its first beat is kept in the state handed in, with no pass of
    /// its own.
    func scheduleNextBeat(on mixer: Mixer, in state: inout EngineState) {
        _ = playingTrack(in: state)
        guard let due = nextBeat(after: nil, now: mixer.currentFrame(&state)) else { return }
        mixer.schedule(.closure(beatCall(due)), at: due.frame, in: &state)
    }

    /// A beat due: its frame, its unwrapped position, the event, and the generation it counts for.
    private typealias DueBeat = (frame: Int64, unwrapped: Double, beat: MusicBeat, generation: UInt64)

    /// The playing track's next beat at or after `now` (`after` nil) or after the beat at `after`.
    private func nextBeat(after previous: Double?, now: Int64) -> DueBeat? {
        state.withLock { state -> DueBeat? in
            guard let playing = state.playing, let tempo = playing.grid.tempo, state.pausedAt == nil else {
                return nil
            }
            let grid = playing.grid
            let (origin, step) = (tempo.downbeat * grid.trackRate, tempo.secondsPerBeat * grid.trackRate)
            let from = previous.map { $0 + 0.5 } ?? playing.anchor.unwrapped(atFrame: now, grid: grid)
            guard var found = grid.next(origin: origin, step: step, from: from) else { return nil }
            var frame = playing.anchor.frame(ofUnwrapped: found.unwrapped, grid: grid)
            if frame <= state.lastBeatFrame {
                // A switch on a beat: the old track's beat on this frame was sent already.
                guard let later = grid.next(origin: origin, step: step, from: found.unwrapped + 0.5) else {
                    return nil
                }
                found = later
                frame = playing.anchor.frame(ofUnwrapped: found.unwrapped, grid: grid)
            }
            let index = grid.beatIndex(at: found.at, k: found.k, tempo: tempo)
            let position = MusicPosition(beats: Double(index), beatsPerBar: tempo.beatsPerBar)
            let beat = MusicBeat(
                track: playing.name, bar: position.bar, beat: position.beat,
                time: .frames(frame, rate: engine.sampleRate))
            return (frame, found.unwrapped, beat, state.generation)
        }
    }

    /// What runs on a beat's frame: sends it (unless the track it counted for is gone, or a switch
    /// on that frame announces it) and schedules the next.
    private func beatCall(_ due: DueBeat) -> @Sendable () -> Void {
        { [weak self] in
            let step = self?.state.withLock { state -> BeatStep in
                // A switch, stop or pause since this beat was scheduled started a chain of its own
                // (or ended the beats): this chain ends here, so switches never pile up beat calls.
                guard state.generation == due.generation else { return .end }
                // A switch due on this frame announces the beat with the new track's count.
                guard !state.switchFrames.contains(due.frame) else { return .skip }
                state.lastBeatFrame = due.frame
                return .announce
            }
            guard let self, let step, step != .end else { return }
            if step == .announce { beatHub.send(due.beat) }
            scheduleNextBeat(after: due.unwrapped)
        }
    }
}

/// What a scheduled beat call does when its frame comes.
private enum BeatStep {
    /// Sends the beat and schedules the next.
    case announce
    /// A switch lands on this frame and announces it: schedules the next beat only.
    case skip
    /// The track it counted for is gone: the chain ends.
    case end
}
