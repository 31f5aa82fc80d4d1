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
        /// The music's speed (``setSpeed(_:tween:)``), as last set.
        var speed = 1.0
        /// The intensity and speed as the mixer has carried them out, in the order the changes were
        /// written: a switch starts its track at these (a change written after it, or due after it,
        /// does not reach it early).
        var mixedIntensity = 1.0
        var mixedSpeed = 1.0
    }

    let state = Locked(State())
    let beatHub = Broadcast<MusicBeat>()
    /// Holds the track's grid still through a device loss (see ``followDeviceLoss(_:)``).
    private let lossWatch = Locked<EventSubscription?>(nil)

    /// Creates a station playing from `bank`.
    /// - Parameter bank: Where the tracks are (pre)loaded.
    public init(bank: SoundBank) {
        self.bank = bank
        let watch = bank.engine.onDeviceEvent { [weak self] event in self?.followDeviceLoss(event) }
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
            // The grid is tied to the frame the track's voice began on now, while that is still the
            // voice's start: the restore begins the voice again on the restore's frame, which a later
            // tie would take for its start, counting the outage a second time.
            _ = playingTrack()
            state.withLock { $0.lostAt = Int64((time.inSeconds * rate).rounded()) }
        case .deviceRestored(_, let time):
            let resumed = state.withLock { state -> Bool in
                guard let lostAt = state.lostAt else { return false }
                state.lostAt = nil
                // A track whose voice had not begun at the loss begins after the restore, and its
                // grid is tied to that frame then: it has no outage to make up.
                guard state.playing?.confirmed == true, state.pausedAt == nil else { return false }
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
        let track = try loadedTrack(name)
        if case .marker(let marker) = position, track.entry.markers[marker] == nil {
            throw .catalogue(
                .unknownMarker(name: name, marker: marker, known: Array(track.entry.markers.keys)))
        }
        let frame = time.map(engine.frame(for:))
        // The command carries the loop and repeats the track plays with, so the SSH player's does too.
        let loops = loop ?? track.entry.loop
        let repeats = loops ? 0 : PlayOptions.repeatsRange.clamp(repeats)
        submitSwitch(
            to: track, transition: transition, from: position, frame: frame, loop: loops, repeats: repeats,
            due: frame)
    }

    /// The loaded entry, id and buffer (`nil` when streamed) of `name`, checked: in the catalogue, a
    /// music entry, and preloaded.
    func loadedTrack(_ name: String) throws(SoundLoadError) -> Track {
        guard let track = bank.lookup(name) else {
            let entry: SoundEntry
            do { entry = try bank.catalogue.entry(named: name) } catch { throw .catalogue(error) }
            if entry.kind != .music { throw .wrongKind(name: name, kind: entry.kind, expected: .music) }
            throw .notLoaded(name: name)
        }
        if track.entry.kind != .music {
            throw .wrongKind(name: name, kind: track.entry.kind, expected: .music)
        }
        return track
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
        submit(.stopMusic(fade: fade, frame: time.map(engine.frame(for:))))
    }

    /// Pauses the music alone (effects go on).
    public func pause() { submit(.pauseMusic) }

    /// Resumes music paused by ``pause()``.
    public func resume() { submit(.resumeMusic) }
}
