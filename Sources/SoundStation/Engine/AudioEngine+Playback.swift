import CSoundStationRT

extension AudioEngine {
    /// Plays `buffer` once (or looping) now or at a time on the engine clock.
    ///
    /// The call never waits: it writes a command into the engine's lock-free ring and returns; the
    /// mixing side admits the sound (limits, priority, stealing) and starts it at its next round
    /// (offline: a sound for time `t` starts at frame `round(t * sampleRate)`, one without a time at
    /// the next rendered frame). It takes no lock and allocates nothing.
    /// - Parameters:
    ///   - buffer: A buffer made by this engine.
    ///   - options: Volume, pitch, pan, looping, priority and bus.
    ///   - time: When to start, on the engine clock (``time``); `nil` or a past time starts at once.
    /// - Returns: The voice's handle, or `nil` when the engine has fallen 4,096 commands behind.
    ///   When every voice is busy with more important sounds the handle is never active and a
    ///   ``SoundEvent/refused(_:sound:time:)`` event says so.
    /// - Throws: ``AudioEngineError/invalidArgument(name:value:expected:)`` for a buffer made by
    ///   another engine or a value of `options` out of its range (``PlayOptions/check()``).
    @discardableResult
    public func play(_ buffer: SoundBuffer, options: PlayOptions = PlayOptions(), at time: Duration? = nil)
        throws(AudioEngineError) -> VoiceHandle?
    {
        try checkPlay(of: "buffer", named: buffer.name, madeOn: buffer.ring, options: options)
        // The command holds the buffer, so a buffer made and dropped in one expression still plays.
        return trigger(buffer.id, options: options, at: time, carrying: buffer)
    }

    /// Throws unless a buffer or stream was made on this engine's `ring` and `options` are in range.
    func checkPlay(of kind: String, named name: String, madeOn owner: CommandRing, options: PlayOptions)
        throws(AudioEngineError)
    {
        guard owner === ring else {
            throw .invalidArgument(
                name: kind, value: "\"\(name)\"", expected: "a \(kind) made by this engine")
        }
        try options.check()
    }

    /// Writes one play command with `options` as they are (clamped), carrying `object` (a buffer or
    /// a stream feeder) retained until the mixing side takes it over: a retain is an atomic increment.
    func trigger(_ sound: SoundID, options: PlayOptions, at time: Duration?, carrying object: AnyObject)
        -> VoiceHandle?
    {
        let retained = Unmanaged.passRetained(object)
        let handle = trigger(
            sound, options: Self.clamp(options), at: time, soundDefaults: false, retained: retained.toOpaque()
        )
        if handle == nil { retained.release() }
        return handle
    }

    /// Writes one play command for `sound` into the ring.
    /// - Parameters:
    ///   - soundDefaults: Take priority, bus and limits from the sound's table entry and multiply
    ///     its volume, rather than using `options` as they are.
    ///   - retained: A retained buffer or stream feeder for the command to carry; the caller releases it
    ///     on `nil`.
    func trigger(
        _ sound: SoundID, options: PlayOptions, at time: Duration?, soundDefaults: Bool,
        retained: UnsafeMutableRawPointer? = nil
    ) -> VoiceHandle? {
        let ticket = ring.nextTicket()
        let frame = time.map(frame(for:)) ?? Int64(SSRT_NOW)
        let command = ssrt_command(
            ticket: ticket, sound: sound, options: options, frame: frame, soundDefaults: soundDefaults,
            retained: retained)
        return ring.push(command) ? VoiceHandle(ticket: ticket) : nil
    }

    /// Runs `body` under the state lock once every waiting command has been carried out, then sends
    /// the events both produced (outside the lock, so a handler may call the engine).
    func withState<T>(_ body: (inout EngineState, inout [SoundEvent]) -> T) -> T {
        var events: [SoundEvent] = []
        let result = withState(collecting: &events, body)
        hub.send(events)
        return result
    }

    /// ``withState(_:)`` that hands the events back instead of sending them, for callers holding a
    /// lock of their own.
    func withState<T>(
        collecting events: inout [SoundEvent], _ body: (inout EngineState, inout [SoundEvent]) -> T
    )
        -> T
    {
        state.withLock { state in
            drainCommands(&state, events: &events)
            return body(&state, &events)
        }
    }

    /// Carries out the commands the ring holds, in the order they were written.
    func drainCommands(_ state: inout EngineState, events: inout [SoundEvent]) {
        guard ring.hasPending else { return }
        ring.drain { command in execute(command, in: &state, events: &events) }
    }

    /// Starts (or schedules) the voice one play command asks for.
    private func execute(_ command: ssrt_command, in state: inout EngineState, events: inout [SoundEvent]) {
        let sound = SoundID(rawValue: command.sound)
        // A command carries a buffer (play(buffer)), a stream's feeder (play(stream)) or nothing (a
        // trigger by id, which plays the id's installed buffer).
        let carried = command.retained.map { Unmanaged<AnyObject>.fromOpaque($0).takeRetainedValue() }
        let stream = carried as? StreamFeeder
        let index = state.sounds.index(sound)
        let buffer =
            carried as? SoundBuffer
            ?? (carried == nil ? index.flatMap { state.sounds.slots[$0].buffer } : nil)
        // A pan outside -1...1 from the trigger that cannot throw (TriggerPort, in signal handlers;
        // every other trigger checked it) is refused like a start the pool cannot take, so a bad value
        // is heard of, not moved.
        guard (-1...1).contains(command.pan), let index, let name = buffer?.name ?? stream?.name else {
            let handle = VoiceHandle(ticket: command.ticket)
            events.append(
                .refused(
                    handle, sound: state.sounds.name(of: sound), time: time(ofFrame: currentFrame(&state))))
            return
        }
        var request = VoiceRequest(
            name: name, sound: sound, buffer: buffer, stream: stream,
            options: PlayOptions(
                volume: command.volume, pitch: command.pitch, pan: command.pan, loop: command.loops,
                priority: Int(command.priority), bus: Bus(index: command.bus), position: command.position,
                spatialize: command.spatializes, filter: command.voiceFilter, reverbSend: command.reverb_send,
                duckMusic: command.duck_music_db)
        )
        if command.usesSoundDefaults {
            let defaults = state.sounds.slots[index].defaults
            request.options.volume *= defaults.volume
            request.options.priority = defaults.priority
            request.options.bus = defaults.bus
            // The deeper of the caller's dip and the catalogue's.
            request.options.duckMusic = min(request.options.duckMusic, defaults.duckMusic)
            request.limit = defaults.limit
            request.options = Self.clamp(request.options)
        }
        let frame = command.frame == Int64(SSRT_NOW) ? nil : command.frame
        _ = startVoice(request, ticket: command.ticket, atFrame: frame, in: &state, events: &events)
        // The remote tap, until every command passes one place on the mixing side.
        if let link = remoteLink.withLock({ $0 }) {
            let play = EngineCommand.play(
                voice: VoiceHandle(ticket: command.ticket), sound: sound, options: request.options, frame: frame)
            link.forward(play, frame: currentFrame(&state)) { [sounds = state.sounds] in sounds.name(of: $0) }
        }
    }

    /// Runs `action` when the engine clock reaches `time`: exactly at that frame while rendering offline,
    /// within a few milliseconds on a device. Anything the action plays is heard from `time` on.
    /// - Parameters:
    ///   - time: A time on the engine clock; a past time runs at the next chance.
    ///   - action: The work, called outside the engine's lock (it may call the engine).
    public func schedule(at time: Duration, _ action: @escaping @Sendable () -> Void) {
        schedule(atFrame: frame(for: time), action)
    }

    /// ``schedule(at:_:)`` at a frame of the render clock.
    func schedule(atFrame frame: Int64, _ action: @escaping @Sendable () -> Void) {
        state.withLock { state in
            let index = state.calls.firstIndex { $0.frame > frame } ?? state.calls.endIndex
            state.calls.insert((frame, action), at: index)
        }
        ring.wake()
    }

    /// Stops a voice at once, or fading out; a stale handle does nothing.
    /// - Parameters:
    ///   - voice: The handle ``play(_:options:at:)-(SoundBuffer,_,_)`` returned.
    ///   - fade: How long to fade out before stopping; `.zero` stops at once.
    public func stop(_ voice: VoiceHandle, fade: Duration = .zero) {
        hub.send(stopCollectingEvents(voice, fade: fade.inSeconds))
    }

    /// ``stop(_:fade:)`` that hands back its events instead of sending them, for callers holding a
    /// lock of their own (a handler could call back into them).
    func stopCollectingEvents(_ voice: VoiceHandle, fade: Double) -> [SoundEvent] {
        var events: [SoundEvent] = []
        withState(collecting: &events) { state, events in
            guard let slot = state.pool.slot(of: voice) else { return }
            let now = currentFrame(&state)
            if fade > 0 {
                fadeOut(slot, over: fade, in: &state, at: now)
            } else {
                finish(slot, reason: .stopped, in: &state, at: now, events: &events)
            }
        }
        return events
    }

    /// Pauses one voice where it is; a stale handle does nothing.
    /// - Parameter voice: The voice.
    public func pause(_ voice: VoiceHandle) {
        withState { state, _ in
            guard let slot = state.pool.slot(of: voice), state.pool.voices[Int(slot)].phase == .playing else {
                return
            }
            state.pool.voices[Int(slot)].source?.pause()
            state.pool.update(slot) { $0.phase = .paused }
        }
    }

    /// Resumes a voice paused by ``pause(_:)`` (unless the whole engine is paused).
    /// - Parameter voice: The voice.
    public func resume(_ voice: VoiceHandle) {
        withState { state, _ in
            guard !state.isPaused, let slot = state.pool.slot(of: voice),
                state.pool.voices[Int(slot)].phase == .paused
            else { return }
            try? state.pool.voices[Int(slot)].source?.play()
            state.pool.update(slot) { $0.phase = .playing }
        }
    }

    /// Stops every voice, or those on one bus, at once or fading out.
    /// - Parameters:
    ///   - bus: Only voices on this bus; `nil` for all.
    ///   - fade: How long to fade out; `.zero` stops at once.
    public func stopAll(on bus: Bus? = nil, fade: Duration = .zero) {
        let fade = fade.inSeconds
        withState { state, events in
            let now = currentFrame(&state)
            for slot in state.pool.busySlots
            where bus == nil || state.pool.voices[Int(slot)].options.bus == bus {
                if fade > 0 {
                    fadeOut(slot, over: fade, in: &state, at: now)
                } else {
                    finish(slot, reason: .stopped, in: &state, at: now, events: &events)
                }
            }
        }
    }

    /// Changes a playing voice's volume (before fades and bus gains); a stale handle does nothing.
    /// - Parameters:
    ///   - volume: Linear gain.
    ///   - voice: The voice.
    public func setVolume(_ volume: Float, for voice: VoiceHandle) {
        withState { state, _ in
            guard let slot = state.pool.slot(of: voice) else { return }
            state.pool.update(slot) { $0.options.volume = max(0, volume.isFinite ? volume : 0) }
            applyGain(slot, in: &state, at: currentFrame(&state))
        }
    }

    /// Changes a playing voice's pitch (1 as recorded); a stale handle does nothing.
    /// - Parameters:
    ///   - pitch: Playback speed, 0.5...2 sounds natural.
    ///   - voice: The voice.
    public func setPitch(_ pitch: Float, for voice: VoiceHandle) {
        withState { state, _ in
            guard let slot = state.pool.slot(of: voice) else { return }
            let pitch = Self.clampPitch(pitch)
            state.pool.update(slot) { $0.options.pitch = pitch }
            state.pool.voices[Int(slot)].source?.setPitch(pitch)
        }
    }

    /// Whether `voice` still holds its sound (playing, paused or waiting to start).
    /// - Parameter voice: The handle.
    /// - Returns: False once the sound ended, was stopped, lost its voice or was refused.
    public func isActive(_ voice: VoiceHandle) -> Bool {
        withState { state, _ in state.pool.slot(of: voice) != nil }
    }

    /// Where `voice` is in its sound, in frames from its start, or `nil` for a stale handle.
    /// - Parameter voice: The handle.
    /// - Returns: The frame being played.
    public func position(of voice: VoiceHandle) -> Int? {
        withState { state, _ in
            guard let current = state.pool.voice(voice) else { return nil }
            if let feeder = current.filtered, let source = current.source {
                return feeder.position(source: source)
            }
            if let stream = current.stream, let source = current.source {
                return stream.position(source: source)
            }
            return current.source?.sampleOffset
        }
    }

    var isOffline: Bool {
        if case .offline = output { return true }
        return false
    }

    /// The engine-clock time of `frame`, for events.
    func time(ofFrame frame: Int64) -> Duration { .frames(frame, rate: sampleRate) }

    /// Claims a voice for `request` under the state lock (music: it streams and fades in) and starts
    /// it now or schedules it, handing back its events.
    /// - Returns: The handle, or `nil` when the sound was refused.
    func startCollectingEvents(_ request: VoiceRequest, at time: Duration?) -> (VoiceHandle?, [SoundEvent]) {
        var request = request
        request.options = Self.clamp(request.options)
        let ticket = ring.nextTicket()
        var events: [SoundEvent] = []
        let started = withState(collecting: &events) { state, events in
            startVoice(
                request, ticket: ticket, atFrame: time.map(frame(for:)), in: &state, events: &events)
        }
        return (started ? VoiceHandle(ticket: ticket) : nil, events)
    }

    /// Admits `request` by its limit and the pool, claims a voice, and starts it (a device, now) or
    /// schedules it (offline, later, or a stream: housekeeping primes it).
    /// - Returns: False when the sound was refused (a `refused` event says so).
    func startVoice(
        _ request: VoiceRequest, ticket: UInt64, atFrame requested: Int64?, in state: inout EngineState,
        events: inout [SoundEvent]
    ) -> Bool {
        let now = currentFrame(&state)
        let frame = requested.map { max(now, $0) } ?? now
        if let limit = request.limit {
            switch admit(request.sound, limit: limit, at: frame, in: &state, events: &events) {
            case .coalesced(let slot):
                state.pool.alias(ticket, to: slot)
                return true
            case .refused:
                events.append(
                    .refused(VoiceHandle(ticket: ticket), sound: request.name, time: time(ofFrame: now)))
                return false
            case .admitted: break
            }
        }
        guard let claimed = try? state.pool.claim(priority: request.options.priority, device: device) else {
            events.append(
                .refused(VoiceHandle(ticket: ticket), sound: request.name, time: time(ofFrame: now)))
            return false
        }
        if let stolen = claimed.stolen {
            stolen.source?.stop()
            let old = VoiceHandle(ticket: stolen.ticket)
            events.append(.finished(old, sound: stolen.name, reason: .stolen, time: time(ofFrame: now)))
        }
        // Streams decode their first buffers when they start: leave that to housekeeping, off the
        // caller's thread.
        let deferred = frame > now || isOffline || request.stream != nil || request.group != 0
        let phase: Voice.Phase = deferred ? .scheduled(frame: frame) : .playing
        // A stream opens and decodes its first chunks on the streaming worker from now on.
        request.stream?.start(from: request.startOffset)
        _ = state.pool.occupy(claimed.slot, request: request, ticket: ticket, phase: phase, startFrame: frame)
        if request.fadeIn > 0 {
            let length = Int64(request.fadeIn * Double(sampleRate))
            state.pool.update(claimed.slot) {
                $0.fade = GainRamp(from: 0, to: 1, start: frame, end: frame + length, curve: .equalPowerIn)
            }
        }
        if !deferred { begin(claimed.slot, in: &state, at: now, events: &events) }
        return true
    }

    private enum Admission {
        case admitted, refused
        case coalesced(Int32)
    }

    /// Applies a sound's instance limit: folds a near-simultaneous repeat into the last start, or
    /// makes room by stealing one of its own instances, or refuses.
    private func admit(
        _ sound: SoundID, limit: InstanceLimit, at frame: Int64, in state: inout EngineState,
        events: inout [SoundEvent]
    ) -> Admission {
        let slots = state.pool.instances(of: sound)
        if limit.coalesceFrames > 0, let last = slots.last {
            if abs(frame - state.pool.voices[Int(last)].startFrame) <= limit.coalesceFrames {
                return .coalesced(last)
            }
        }
        guard slots.count >= limit.maxInstances else { return .admitted }
        let victim: Int32?
        switch limit.steal {
        case .refuse: return .refused
        case .oldest: victim = slots.first
        case .quietest:
            victim = slots.min { a, b in
                let (x, y) = (state.pool.voices[Int(a)], state.pool.voices[Int(b)])
                return x.options.volume * x.fade.value(at: frame) < y.options.volume * y.fade.value(at: frame)
            }
        }
        if let victim { finish(victim, reason: .stolen, in: &state, at: state.frame, events: &events) }
        return .admitted
    }

    /// Starts the source of an occupied slot with its options.
    /// Begins the voices due now: alone, or with the rest of their group.
    func beginDue(_ slots: [Int32], in state: inout EngineState, at frame: Int64, events: inout [SoundEvent])
    {
        var groups: [UInt64: [Int32]] = [:]
        for slot in slots {
            let group = state.pool.voices[Int(slot)].group
            if group == 0 {
                begin(slot, in: &state, at: frame, events: &events)
            } else {
                groups[group, default: []].append(slot)
            }
        }
        for group in groups.keys.sorted() {
            beginTogether(groups[group] ?? [], in: &state, at: frame, events: &events)
        }
    }

    /// Begins a group's voices on one frame: each is set up, then all start in one `alSourcePlayv`.
    /// While any of their streams is still decoding its first chunks, all of them wait.
    private func beginTogether(
        _ slots: [Int32], in state: inout EngineState, at frame: Int64, events: inout [SoundEvent]
    ) {
        let waiting = slots.contains { state.pool.voices[Int($0)].stream.map { !$0.isReadyToBegin } ?? false }
        if waiting {
            for slot in slots { state.pool.reschedule(slot, at: frame + Self.quantum) }
            return
        }
        var started: [(slot: Int32, source: OpenALSource)] = []
        for slot in slots {
            if let source = begin(slot, in: &state, at: frame, events: &events, holdingPlay: true) {
                started.append((slot, source))
            }
        }
        do {
            try OpenALSource.playAll(started.map(\.source))
        } catch {
            // One by one, then: the stems may start a mixing period apart, but they are heard.
            for (_, source) in started { try? source.play() }
        }
        for (slot, source) in started {
            let voice = state.pool.voices[Int(slot)]
            if voice.stream == nil, voice.filtered == nil, voice.startOffset > 0 {
                source.sampleOffset = voice.startOffset
            }
            if state.isPaused { source.pause() }
        }
    }

    /// Sets up a voice's source and starts it (or, `holdingPlay`, leaves the start to its group).
    /// - Returns: The source, or nil when the voice was refused.
    @discardableResult
    func begin(
        _ slot: Int32, in state: inout EngineState, at frame: Int64, events: inout [SoundEvent],
        holdingPlay: Bool = false
    ) -> OpenALSource? {
        var voice = state.pool.voices[Int(slot)]
        if let stream = voice.stream, !stream.isReadyToBegin {
            // The worker is still opening or decoding: look again next round (it wakes the driver).
            state.pool.reschedule(slot, at: frame + Self.quantum)
            return nil
        }
        placeVoice(slot, in: &state, at: frame)
        voice = state.pool.voices[Int(slot)]
        let gain = state.gain(of: voice, at: frame)
        do {
            let source = try state.pool.sourceFor(slot, device: device)
            let channels = voice.buffer?.channels ?? voice.stream?.format?.channels ?? 1
            // A voice under a cutoff filter is fed as a queue of filtered blocks (Filtering/).
            let filtered = needsCutoff(voice, in: state, at: frame)
            // A plain one-shot is set up and started in one batch; streams queue first, resumed
            // sounds seek after starting.
            let atOnce = voice.stream == nil && voice.startOffset == 0 && !filtered
            try source.prepare(
                buffer: filtered ? nil : voice.buffer?.storage, channels: channels, gain: gain,
                pitch: voice.options.pitch, pan: voice.options.pan, spatialize: voice.options.spatialize,
                loop: voice.options.loop && voice.stream == nil && !filtered, play: atOnce && !holdingPlay)
            applyEffects(to: source, options: voice.options, in: &state)
            if filtered {
                try startFiltered(slot, source: source, from: voice.startOffset, in: &state, at: frame)
            } else if let stream = voice.stream {
                try stream.prime(source: source)
            }
            if !holdingPlay {
                if !atOnce { try source.play() }
                if voice.stream == nil, voice.startOffset > 0, !filtered {
                    source.sampleOffset = voice.startOffset
                }
                if state.isPaused { source.pause() }
            }
            let endEstimate =
                filtered ? .max : Self.endEstimate(of: voice, from: frame, engineRate: sampleRate)
            state.pool.update(slot) {
                $0.phase = state.isPaused ? .paused : .playing
                $0.announced = !state.isPaused
                $0.appliedGain = gain
                $0.startFrame = frame
                $0.endEstimate = endEstimate
            }
            if hub.isListening, !state.isPaused {
                events.append(
                    .started(state.pool.handle(slot), sound: voice.name, time: time(ofFrame: frame)))
            }
            return source
        } catch {
            state.pool.release(slot)
            events.append(
                .refused(VoiceHandle(ticket: voice.ticket), sound: voice.name, time: time(ofFrame: frame)))
            return nil
        }
    }

    /// Stops a busy voice and frees it, with a finished event.
    func finish(
        _ slot: Int32, reason: SoundEvent.FinishReason, in state: inout EngineState, at frame: Int64,
        events: inout [SoundEvent]
    ) {
        // Fields are read one by one: copying the whole voice retains and releases all it holds.
        guard state.pool.voices[Int(slot)].isBusy else { return }
        state.pool.voices[Int(slot)].source?.stop()
        let handle = state.pool.handle(slot)
        if hub.isListening {
            events.append(
                .finished(
                    handle, sound: state.pool.voices[Int(slot)].name, reason: reason,
                    time: time(ofFrame: frame)))
        }
        state.pool.release(slot)
    }

    /// Starts a fade to silence that ends the voice.
    func fadeOut(_ slot: Int32, over seconds: Double, in state: inout EngineState, at frame: Int64) {
        let length = Int64(seconds * Double(sampleRate))
        state.pool.update(slot) {
            $0.fade = $0.fade.retargeted(to: 0, at: frame, over: length, curve: .equalPowerOut)
            $0.stopsAfterFade = true
        }
    }

    /// Sends the voice's current gain to OpenAL when it changed.
    /// - Parameter levels: The bus levels at `frame`, when the caller has them already.
    func applyGain(_ slot: Int32, in state: inout EngineState, at frame: Int64, levels: BusLevels? = nil) {
        let index = Int(slot)
        let phase = state.pool.voices[index].phase
        guard phase == .playing || phase == .paused else { return }
        // Only the fields the gain depends on are read, so no reference in the voice is retained.
        let options = state.pool.voices[index].options
        let fade = state.pool.voices[index].fade
        let gain =
            if let levels {
                state.gain(options: options, fade: fade, at: frame, levels: levels)
            } else {
                state.gain(options: options, fade: fade, at: frame)
            }
        guard gain != state.pool.voices[index].appliedGain else { return }
        state.pool.voices[index].source?.setGain(gain)
        state.gainsMoved = true
        state.pool.update(slot) { $0.appliedGain = gain }
    }

    /// When a one-shot started at `frame` should end at its pitch, in render-clock frames.
    static func endEstimate(of voice: Voice, from frame: Int64, engineRate: Int) -> Int64 {
        guard !voice.options.loop, voice.stream == nil, let buffer = voice.buffer else { return .max }
        let remaining = Double(max(buffer.frameCount - voice.startOffset, 0)) / Double(buffer.sampleRate)
        return frame + Int64(remaining / Double(max(voice.options.pitch, 0.01)) * Double(engineRate))
    }

    static func clamp(_ options: PlayOptions) -> PlayOptions {
        var clamped = options
        clamped.volume = max(0, options.volume.isFinite ? options.volume : 0)
        clamped.pitch = clampPitch(options.pitch)
        clamped.pan = options.pan.isFinite ? max(-1, min(1, options.pan)) : 0
        clamped.priority = max(0, min(255, options.priority))
        // A position or filter with a NaN in it never reaches OpenAL.
        if let position = options.position, (try? position.check()) == nil { clamped.position = nil }
        if let filter = options.filter, (try? filter.check()) == nil { clamped.filter = nil }
        clamped.reverbSend = options.reverbSend.isFinite ? max(0, min(1, options.reverbSend)) : 1
        clamped.duckMusic =
            options.duckMusic.isFinite ? max(PlayOptions.deepestDuck, min(0, options.duckMusic)) : 0
        return clamped
    }

    static func clampPitch(_ pitch: Float) -> Float {
        pitch.isFinite ? max(0.01, min(8, pitch)) : 1
    }
}
