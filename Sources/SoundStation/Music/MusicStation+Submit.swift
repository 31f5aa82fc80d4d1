/// How a music command reaches the mixer: the station's calls check their arguments and end here,
/// as does the SSH player with the commands it receives.
extension MusicStation {
    /// A track as a switch holds it: its catalogue entry, id and buffer (`nil` when streamed).
    typealias Track = SoundBank.Found

    /// Writes `command` for the mixer as this station's change, which
    /// ``Mixer/perform(_:in:events:tap:)`` carries out at its frame. What the change needs that
    /// cannot cross a process is resolved here: a switch's track (its entry and buffers) from the
    /// command's sound id in this station's bank (the station's own calls, which have resolved it,
    /// go to ``submitSwitch(to:transition:from:frame:loop:repeats:due:)``). Never waits.
    /// - Parameters:
    ///   - command: A music command, with this engine's sound id and frames, its values in range
    ///     (``EngineCommand/check(sampleRate:)``).
    ///   - frame: The engine frame to carry it out at; `nil` for the one a switch or stop names, or
    ///     else when the mixer takes it.
    /// - Returns: False for a command that is not the music's, a switch to a track this station's
    ///   bank has not loaded, or a command dropped by a full ring.
    @discardableResult
    package func submit(_ command: EngineCommand, atFrame frame: Int64? = nil) -> Bool {
        var frame = frame
        let change: MusicTask.Change
        switch command {
        case .playMusic(let sound, let transition, let position, let at, let loop, let repeats):
            guard let track = loadedTrack(sound) else { return false }
            return submitSwitch(
                to: track, transition: transition, from: position, frame: at, loop: loop, repeats: repeats,
                due: frame ?? at)
        case .stopMusic(let fade, let at):
            change = .stop(fade: fade.inSeconds)
            frame = frame ?? at
        case .pauseMusic: change = .pause
        case .resumeMusic: change = .resume
        case .setIntensity(let intensity, let tween):
            // The value last set, for the getter at once; the mixer's own follows with the change.
            state.withLock { $0.intensity = intensity }
            change = .intensity(intensity, tween)
        case .setMusicSpeed(let speed, let tween):
            state.withLock { $0.speed = speed }
            change = .speed(speed, seconds: tween.inSeconds)
        case .play, .stop, .stopAll, .pause, .resume, .pauseAll, .resumeAll, .setVoice, .setPosition,
            .setVoiceFilter, .seek, .setBusVolume, .setBusMuted, .setBusFilter, .setBusReverb, .setDucking,
            .setListener, .setSpatialLayout, .setHRTF:
            return false
        }
        return engine.submit(.music(command, MusicTask(station: self, change: change, frame: frame)))
    }

    /// Submits a switch to `track`, which the caller resolved: the `.playMusic` command (for the
    /// command tap and the SSH player) and the switch as the mixer carries it out, both made here
    /// from the same values. Nothing on the way takes a command apart: binding a `.playMusic`
    /// payload copies it as a tuple, whose type metadata is built at run time on first use (about
    /// 38,000 instructions on a game's first switch) and copied through it every time after (about
    /// 340). Nor is the track optional: an optional `Track` needed its metadata built the same way.
    /// - Parameters:
    ///   - frame: The engine frame the command names; `nil` for at once.
    ///   - loop: Whether the track loops; `nil` as its catalogue entry says.
    ///   - repeats: Passes after the first when it does not loop; `nil` as its entry says.
    ///   - due: The engine frame the mixer carries the switch out at; `nil` when it takes it.
    /// - Returns: False when the ring was full and the command was dropped.
    @discardableResult
    func submitSwitch(
        to track: Track, transition: MusicTransition, from position: StartPosition, frame: Int64?,
        loop: Bool?, repeats: Int?, due: Int64?
    ) -> Bool {
        let command = EngineCommand.playMusic(
            sound: track.id, transition: transition, from: position, frame: frame, loop: loop,
            repeats: repeats)
        let change = MusicTask.Switch(
            track: track, transition: transition, position: position, loop: loop, repeats: repeats)
        return engine.submit(.music(command, MusicTask(station: self, change: .play(change), frame: due)))
    }

    /// The loaded track whose id is `sound` in this station's bank.
    private func loadedTrack(_ sound: SoundID) -> Track? {
        let name = engine.sounds.withLock { table in table.index(sound).map { table.slots[$0].name } }
        guard let name, let track = try? loadedTrack(name), track.id == sound else { return nil }
        return track
    }
}
