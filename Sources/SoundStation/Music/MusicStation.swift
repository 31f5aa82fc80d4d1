/// The game's background music: one track at a time, switched per scene.
///
/// Tracks are preloaded before they are needed, `play` rewinds the chosen
/// track to its start, loops it forever and stops the others; beyond it, switches can fade or
/// crossfade (equal power), a track can resume where it left off, and long tracks stream.
public final class MusicStation: Sendable {
    /// Where a track starts when it is played again.
    public enum StartPosition: Sendable, Equatable {
        /// From its beginning (the default).
        case restart
        /// From where it was when it was last switched away from or stopped.
        case resume
        /// From its first downbeat (the catalogue's `downbeat`; its start when it has no tempo): the
        /// default of a switch on the grid, ``play(_:transition:from:at:)-(String,_,_,MusicQuantize)``.
        case downbeat
        /// From a marker of its catalogue entry.
        case marker(String)
    }

    /// The bank the tracks are loaded in.
    public let bank: SoundBank
    var engine: AudioEngine { bank.engine }

    struct Playing {
        var name: String
        var voice: VoiceHandle
        /// The track's tempo, markers and loop, and where it is tied to the engine clock.
        var grid: TrackGrid
        var anchor: GridAnchor
        /// Whether the anchor's frame is the one the voice really began on (a stream on a device
        /// begins once its first chunks are decoded, a little after the switch).
        var confirmed = false
        /// The frame the switch asked for, which the anchor starts from until confirmed.
        var switchFrame: Int64
        /// A layered track's stem voices and the stems they play, started on the track's frame.
        var stems: [(voice: VoiceHandle, stem: Stem)] = []
        var volume: Float = 1
        /// The time-stretcher the track and its stems play through, once its speed is not 1.
        var stretch: StretchGroup?

        /// The track's voice and its stems' voices.
        var voices: [VoiceHandle] { [voice] + stems.map(\.voice) }
    }

    struct State {
        var playing: Playing?
        var positions: [String: Int] = [:]
        var paused = false
        /// The engine frame the music was paused at, while it is.
        var pausedAt: Int64?
        /// Moves on at every switch, stop, pause and resume, ending the beat events of what was.
        var generation: UInt64 = 0
        /// The frame of the last beat sent, so a switch on a beat does not send that frame twice.
        var lastBeatFrame: Int64 = -1
        /// Frames scheduled switches are due on, where the old track's beat is left to the new one.
        var switchFrames: Set<Int64> = []
        /// The engine frame the device was lost at, until it is restored.
        var lostAt: Int64?
        /// The layered tracks' intensity, 0...1.
        var intensity = 1.0
        /// The last voice group a layered track started with (its voices start in one call).
        var group: UInt64 = 0
        /// The music's speed (``setSpeed(_:tween:)``), the one tracks started later play at.
        var speed = 1.0
    }

    let state = Locked(State())
    let beatHub = Broadcast<MusicBeat>()
    /// Holds the track's grid still through a device loss (see ``followDeviceLoss(_:)``).
    private let lossWatch = Locked<EventSubscription?>(nil)

    /// Creates a station playing from `bank`.
    /// - Parameter bank: Where the tracks are (pre)loaded.
    public init(bank: SoundBank) {
        self.bank = bank
        let watch = bank.engine.onEvent { [weak self] event in self?.followDeviceLoss(event) }
        lossWatch.withLock { $0 = watch }
    }

    deinit {
        lossWatch.withLock { $0?.cancel() }
        beatHub.finish()
    }

    /// While the device is lost the track is not heard, and after the restore it resumes where it
    /// stopped: its grid moves on by the outage, as through a pause, so its position does not run
    /// ahead of what is heard.
    private func followDeviceLoss(_ event: SoundEvent) {
        let rate = Double(engine.sampleRate)
        switch event {
        case .deviceLost(_, let time):
            state.withLock { $0.lostAt = Int64((time.inSeconds * rate).rounded()) }
        case .deviceRestored(_, let time):
            let resumed = state.withLock { state -> Bool in
                guard let lostAt = state.lostAt else { return false }
                state.lostAt = nil
                guard state.playing != nil, state.pausedAt == nil else { return false }
                state.playing?.anchor.frame += max(0, Int64((time.inSeconds * rate).rounded()) - lostAt)
                state.generation &+= 1
                return true
            }
            if resumed { scheduleNextBeat(after: nil) }
        default: break
        }
    }

    /// The track playing now (or fading in), if any.
    public var current: String? { state.withLock { $0.playing?.name } }

    /// The voice of the current track, for position queries.
    public var currentVoice: VoiceHandle? { state.withLock { $0.playing?.voice } }

    /// Switches to `name`, stopping the track that was playing.
    /// - Parameters:
    ///   - name: A preloaded music entry.
    ///   - transition: Cut, fade in, or crossfade from the current track.
    ///   - position: ``StartPosition/restart`` (default) or ``StartPosition/resume``.
    ///   - time: When to switch, on the engine clock; `nil` for now. A later switch waits in the
    ///     engine without holding the station: it does not happen if the station is freed, or the
    ///     engine shut down, before it is due.
    ///   - loop: Whether the track starts again at its end; `nil` as its catalogue entry says.
    ///   - repeats: When it does not loop: whole passes it plays after its first (0 once), before the
    ///     music stops.
    /// - Throws: A catalogue error for an unknown name; ``SoundLoadError/wrongKind(name:kind:expected:)``
    ///   for an effect or voice entry; ``SoundLoadError/notLoaded(name:)`` when the track was not
    ///   preloaded.
    public func play(
        _ name: String, transition: MusicTransition = .cut, from position: StartPosition = .restart,
        at time: Duration? = nil, loop: Bool? = nil, repeats: Int = 0
    ) throws(SoundLoadError) {
        let (catalogued, id, buffer) = try loadedTrack(name)
        var played = catalogued
        if let loop { played.loop = loop }
        played.repeats = played.loop ? 0 : max(0, min(repeats, PlayOptions.repeatsRange.upperBound))
        let entry = played
        if case .marker(let marker) = position, entry.markers[marker] == nil {
            throw .catalogue(.unknownMarker(name: name, marker: marker, known: Array(entry.markers.keys)))
        }
        let frame = time.map(engine.frame(for:))
        let command = EngineCommand.playMusic(sound: id, transition: transition, from: position, frame: frame)
        engine.submit(
            .station(command) { [self] in
                guard let frame else {
                    switchTo(entry, id: id, buffer: buffer, transition, position)
                    return
                }
                state.withLock { _ = $0.switchFrames.insert(frame) }
                // Held weakly: the engine keeps its scheduled calls, and the station holds the engine
                // (through its bank), so a strong hold would keep both alive while the switch waits.
                engine.schedule(atFrame: frame) { [weak self] in
                    guard let self else { return }
                    state.withLock { _ = $0.switchFrames.remove(frame) }
                    switchTo(entry, id: id, buffer: buffer, transition, position)
                }
            })
    }

    /// The loaded entry, id and buffer (`nil` when streamed) of `name`, checked: in the catalogue, a
    /// music entry, and preloaded.
    func loadedTrack(_ name: String) throws(SoundLoadError) -> (SoundEntry, SoundID, SoundBuffer?) {
        guard let (entry, id, buffer) = bank.lookup(name) else {
            let entry: SoundEntry
            do { entry = try bank.catalogue.entry(named: name) } catch { throw .catalogue(error) }
            if entry.kind != .music { throw .wrongKind(name: name, kind: entry.kind, expected: .music) }
            throw .notLoaded(name: name)
        }
        if entry.kind != .music { throw .wrongKind(name: name, kind: entry.kind, expected: .music) }
        return (entry, id, buffer)
    }

    /// Plays a track named by a typed resource.
    /// - Parameters:
    ///   - track: A ``SoundResource`` whose catalogue name is a music entry.
    ///   - transition: Cut, fade in, or crossfade.
    ///   - position: Restart or resume.
    ///   - time: When to switch, on the engine clock; `nil` for now.
    /// - Throws: As ``play(_:transition:from:at:)-(String,_,_,Duration?)``.
    public func play(
        _ track: some SoundResource, transition: MusicTransition = .cut,
        from position: StartPosition = .restart, at time: Duration? = nil
    ) throws(SoundLoadError) {
        try play(track.catalogueName as String, transition: transition, from: position, at: time)
    }

    /// Stops the music, at once or fading out.
    /// - Parameters:
    ///   - fade: How long to fade out; `.zero` stops at once.
    ///   - time: When, on the engine clock; `nil` for now (a later stop waits as a later switch does).
    public func stop(fade: Duration = .zero, at time: Duration? = nil) {
        let frame = time.map(engine.frame(for:))
        engine.submit(
            .station(.stopMusic(fade: fade, frame: frame)) { [self] in
                guard let frame else {
                    stopNow(fade: fade.inSeconds)
                    return
                }
                engine.schedule(atFrame: frame) { [weak self] in self?.stopNow(fade: fade.inSeconds) }
            })
    }

    /// Carries out a stop on the mixing side.
    private func stopNow(fade: Double) {
        let playing = state.withLock { state -> Playing? in
            defer {
                state.playing = nil
                state.generation &+= 1
            }
            return state.playing
        }
        guard let playing else { return }
        remember(playing)
        engine.hub.send(playing.voices.flatMap { engine.stopCollectingEvents($0, fade: fade) })
    }

    /// Pauses the music alone (effects go on).
    public func pause() {
        engine.submit(
            .station(.pauseMusic) { [self] in
                let voices = state.withLock { state -> [VoiceHandle] in
                    if !state.paused, state.playing != nil {
                        state.pausedAt = currentFrame
                        state.generation &+= 1
                    }
                    state.paused = true
                    return state.playing?.voices ?? []
                }
                engine.withState { state, _ in for voice in voices { engine.pauseVoice(voice, in: &state) } }
            })
    }

    /// Resumes music paused by ``pause()``.
    public func resume() {
        engine.submit(
            .station(.resumeMusic) { [self] in
                let voices = state.withLock { state -> [VoiceHandle] in
                    if let pausedAt = state.pausedAt, state.playing != nil {
                        // The track holds still while paused: its grid moves on by the time it was.
                        state.playing?.anchor.frame += currentFrame - pausedAt
                        state.generation &+= 1
                    }
                    state.pausedAt = nil
                    state.paused = false
                    return state.playing?.voices ?? []
                }
                engine.withState { state, _ in for voice in voices { engine.resumeVoice(voice, in: &state) } }
                if !voices.isEmpty { scheduleNextBeat(after: nil) }
            })
    }

    /// Carries out a switch on the mixing side: the old track's voices stop (or fade), the new one's
    /// start on one frame. The station's lock is held only to read and write its state, never while
    /// the engine works, so a query of the station never waits for a switch.
    private func switchTo(
        _ entry: SoundEntry, id: SoundID, buffer: SoundBuffer?, _ transition: MusicTransition,
        _ position: StartPosition
    ) {
        // A track unloaded since the lookup still plays from the buffer the switch holds.
        let grid =
            bank.grid(of: entry.name)
            ?? TrackGrid(
                entry: entry, sampleRate: buffer?.sampleRate ?? engine.sampleRate,
                frameCount: buffer?.frameCount ?? 0)
        let stemBuffers = bank.stems(of: entry.name)
        let (old, intensity, paused, group, speed) = state.withLock { state in
            state.generation &+= 1
            if !entry.stems.isEmpty { state.group &+= 1 }
            return (
                state.playing, state.intensity, state.paused, entry.stems.isEmpty ? 0 : state.group,
                state.speed
            )
        }
        // Events are sent at the end, outside every lock: a handler may switch the music.
        var events: [SoundEvent] = []
        if let old {
            remember(old)
            let fade = if case .crossfade = transition { transition.fadeSeconds } else { 0.0 }
            for voice in old.voices { events += engine.stopCollectingEvents(voice, fade: fade) }
        }
        let offset: Int
        switch position {
        case .restart: offset = 0
        case .resume: offset = state.withLock { $0.positions[entry.name] } ?? 0
        case .downbeat: offset = grid.frame(ofSeconds: entry.tempo?.downbeat ?? 0)
        case .marker(let marker): offset = grid.frame(ofSeconds: entry.markers[marker] ?? 0)
        }
        let now = currentFrame
        // At a speed other than 1 the track and its stems play through one time-stretcher, each
        // voice one member of it.
        let stemsPlayed = entry.stems.indices.filter { index in
            (index < stemBuffers.count ? stemBuffers[index] : nil) != nil || buffer == nil
        }
        let stretch = speed == 1 ? nil : StretchGroup(members: 1 + stemsPlayed.count, speed: speed)
        // A layered track and its stems start as one group: one alSourcePlayv, one frame.
        let (voice, started) = startVoice(
            entry, id: id, buffer: buffer, transition: transition, offset: offset, group: group,
            stretch: stretch.map { StretchTap(group: $0, index: 0) })
        events += started
        var playing: Playing?
        if let voice {
            var anchor = GridAnchor(
                frame: now, position: offset, engineRate: Double(engine.sampleRate), speed: speed)
            anchor.glideFrames = 0
            var track = Playing(
                name: entry.name, voice: voice, grid: grid, anchor: anchor, switchFrame: now,
                volume: entry.volume, stretch: stretch)
            // Stems start in the same round as the track, so on the same frame; a streamed track's
            // stream beside it, each from its own file.
            for index in stemsPlayed {
                let stem = entry.stems[index]
                let stemBuffer = index < stemBuffers.count ? stemBuffers[index] : nil
                let (stemVoice, started) = startVoice(
                    stemBuffer == nil ? entry.stemEntry(index) : entry, id: stemBuffer?.id ?? id,
                    buffer: stemBuffer, transition: transition, offset: offset,
                    volume: entry.volume * stem.gain(at: intensity), group: group,
                    stretch: stretch.map { StretchTap(group: $0, index: 1 + track.stems.count) })
                events += started
                if let stemVoice { track.stems.append((stemVoice, stem)) }
            }
            // Every member's input is there before the first of them begins and asks for samples.
            if stretch != nil { engine.prepareStretch(track.voices) }
            playing = track
        }
        if paused, let playing {
            engine.withState { state, _ in
                for voice in playing.voices { engine.pauseVoice(voice, in: &state) }
            }
        }
        state.withLock { state in
            state.playing = playing
            state.pausedAt = paused && playing != nil ? now : nil
        }
        engine.hub.send(events)
        scheduleNextBeat(after: nil)
    }

    private func startVoice(
        _ entry: SoundEntry, id: SoundID, buffer: SoundBuffer?, transition: MusicTransition, offset: Int,
        volume: Float? = nil, group: UInt64 = 0, stretch: StretchTap? = nil
    ) -> (VoiceHandle?, [SoundEvent]) {
        var options = PlayOptions(
            volume: volume ?? entry.volume, loop: entry.loop, priority: 255, bus: .music)
        options.repeats = entry.repeats
        var request: VoiceRequest
        if let buffer {
            let name = volume == nil ? entry.name : buffer.name
            request = VoiceRequest(name: name, sound: id, buffer: buffer, options: options)
        } else {
            // Opened and decoded on the streaming worker (offline: as the render reaches it), never
            // on this thread.
            let stream = engine.makeFeeder(entry)
            request = VoiceRequest(name: entry.name, sound: id, stream: stream, options: options)
        }
        request.fadeIn = transition.fadeSeconds
        request.startOffset = offset
        request.group = group
        request.stretch = stretch
        return engine.startCollectingEvents(request, at: nil)
    }

    /// Keeps where a track was, for a later ``StartPosition/resume``. Mixing side.
    private func remember(_ playing: Playing) {
        guard let frame = engine.livePosition(of: playing.voice) else { return }
        state.withLock { $0.positions[playing.name] = frame }
    }
}
