import COpenAL
import Glibc

/// Owns one OpenAL source: a voice of the device's mixer.
///
/// `@unchecked Sendable`: the source name is immutable and OpenAL Soft's source calls are thread-safe;
/// the mixer alone decides which voice a source serves, so two owners never drive it at once.
package final class OpenALSource: @unchecked Sendable {
    /// What OpenAL says the source is doing.
    package enum State { case initial, playing, paused, stopped }

    let device: OpenALDevice
    package let id: ALuint
    /// Whether a filter or a reverb send is set on the source, so a start that needs neither can skip
    /// clearing them (two AL calls per start). Touched only by the thread holding the mixer.
    var colourSet = false

    package init(device: OpenALDevice) throws(AudioEngineError) {
        self.device = device
        var id: ALuint = 0
        try withOpenAL(device, "alGenSources") { alGenSources(1, &id) }
        self.id = id
        // Game sounds are 2D: no distance attenuation, positions relative to the listener.
        try withOpenAL(device, "alSource(setup)") {
            alSourcei(id, AL_SOURCE_RELATIVE, AL_TRUE)
            alSourcef(id, AL_ROLLOFF_FACTOR, 0)
            alSourcef(id, AL_MAX_GAIN, 16)
        }
    }

    deinit {
        var id = self.id
        device.withContext {
            alSourceStop(id)
            alSourcei(id, AL_BUFFER, 0)
            alDeleteSources(1, &id)
            _ = alGetError()
        }
    }

    /// Reads one integer property; a failed read (a source of a lost device) reads as 0.
    private func integer(_ parameter: ALenum) -> ALint {
        var value: ALint = 0
        let id = self.id
        device.withContext {
            alGetSourcei(id, parameter, &value)
            _ = alGetError()
        }
        return value
    }

    /// Prepares the source to play `buffer` from its start with the given mix settings.
    /// - Parameter play: Also start it, in the same error check (the trigger path's single batch).
    func prepare(
        buffer: OpenALBuffer?, channels: Int, gain: Float, pitch: Float, pan: Float,
        spatialize: Bool = false, loop: Bool, repeats: Int = 0, play: Bool = false
    ) throws(AudioEngineError) {
        let id = self.id
        // Repeats queue the buffer once per pass: OpenAL plays the passes back to back, sample-exact,
        // at any pitch and through pauses, and the source stops after the last.
        let passes =
            !loop && repeats > 0 ? buffer.map { [ALuint](repeating: $0.id, count: repeats + 1) } ?? [] : []
        try withOpenAL(device, play ? "alSource(prepare), alSourcePlay" : "alSource(prepare)") {
            // Voices are stopped when they are freed, so a stop here is rarely needed; it is skipped
            // then because alSourceStop takes the device's lock (the sound server's, on PulseAudio).
            var state: ALint = 0
            alGetSourcei(id, AL_SOURCE_STATE, &state)
            if state == AL_PLAYING || state == AL_PAUSED { alSourceStop(id) }
            // Setting a buffer on a stopped source replaces whatever it held, a stream's queue included.
            if passes.isEmpty {
                alSourcei(id, AL_BUFFER, buffer.map { ALint(bitPattern: $0.id) } ?? 0)
            } else {
                alSourcei(id, AL_BUFFER, 0)
                passes.withUnsafeBufferPointer { alSourceQueueBuffers(id, ALsizei($0.count), $0.baseAddress) }
            }
            alSourcei(id, AL_LOOPING, loop ? AL_TRUE : AL_FALSE)
            alSourcef(id, AL_PITCH, pitch)
            alSourcef(id, AL_GAIN, gain)
            Self.applyPan(id, pan: pan, channels: channels, spatialize: spatialize)
            if play { alSourcePlay(id) }
        }
    }

    /// Places the sound between the speakers: -1 is hard left, 0 centre, 1 hard right.
    ///
    /// A mono sound goes to the angle `pan * 60°`: OpenAL Soft's stereo panner widens front angles
    /// by 1.5, so -1 and 1 land on its hard left and right (±90°) and the field has no dead ends. Its
    /// gains then are `L = 0.5 (1 - sin(pan·90°)) + 0.0957 cos(pan·90°)` and `R` mirrored: -4.5 dB each
    /// side at the centre. Stereo sounds at the centre skip OpenAL's virtual speakers
    /// (AL_SOFT_direct_channels) so their left and right reach the output untouched; panned ones turn
    /// their stereo angles instead, unless `spatialize` downmixes them to a point
    /// (AL_SOFT_source_spatialize).
    static func applyPan(_ id: ALuint, pan: Float, channels: Int, spatialize: Bool = false) {
        let clamped = pan.isFinite ? max(-1, min(1, pan)) : 0
        let angle = Float.pi / 3 * clamped
        if channels == 2 && !spatialize {
            alSourcei(id, AL_SOURCE_SPATIALIZE_SOFT, AL_AUTO_SOFT)
            alSourcei(id, AL_DIRECT_CHANNELS_SOFT, clamped == 0 ? AL_TRUE : AL_FALSE)
            // A tuple on the stack: an array here would allocate on every start of a stereo sound.
            var angles: (ALfloat, ALfloat) = (angle + Float.pi / 6, angle - Float.pi / 6)
            withUnsafeMutablePointer(to: &angles) { pair in
                pair.withMemoryRebound(to: ALfloat.self, capacity: 2) { alSourcefv(id, AL_STEREO_ANGLES, $0) }
            }
        } else {
            if channels == 2 {
                alSourcei(id, AL_DIRECT_CHANNELS_SOFT, AL_FALSE)
                alSourcei(id, AL_SOURCE_SPATIALIZE_SOFT, AL_TRUE)
            }
            alSource3f(id, AL_POSITION, sin(angle), 0, -cos(angle))
        }
    }

    /// Moves the sound between the speakers (``applyPan(_:pan:channels:spatialize:)``); OpenAL glides
    /// the change over its next mix.
    func setPan(_ pan: Float, channels: Int, spatialize: Bool) {
        let id = self.id
        _ = try? withOpenAL(device, "alSource3f(AL_POSITION)") {
            Self.applyPan(id, pan: pan, channels: channels, spatialize: spatialize)
        }
    }

    package func play() throws(AudioEngineError) {
        let id = self.id
        try withOpenAL(device, "alSourcePlay") { alSourcePlay(id) }
    }

    /// Starts several sources of one device in one `alSourcePlayv`, under the device's AL lock, so
    /// the mixer begins them all in the same update (a layered track's stems).
    static func playAll(_ sources: [OpenALSource]) throws(AudioEngineError) {
        guard let device = sources.first?.device else { return }
        let ids = sources.map(\.id)
        try withOpenAL(device, "alSourcePlayv") {
            ids.withUnsafeBufferPointer { alSourcePlayv(ALsizei($0.count), $0.baseAddress) }
        }
    }

    func pause() {
        let id = self.id
        _ = try? withOpenAL(device, "alSourcePause") { alSourcePause(id) }
    }

    package func stop() {
        let id = self.id
        _ = try? withOpenAL(device, "alSourceStop") {
            alSourceStop(id)
            alSourcei(id, AL_BUFFER, 0)
        }
    }

    /// Stops the source and empties it, ready for a queue (a looping buffer's source stops looping).
    func clearForQueue() {
        let id = self.id
        _ = try? withOpenAL(device, "alSourceStop, alSourcei(AL_BUFFER, AL_LOOPING)") {
            alSourceStop(id)
            alSourcei(id, AL_BUFFER, 0)
            alSourcei(id, AL_LOOPING, AL_FALSE)
        }
    }

    func setGain(_ gain: Float) {
        let id = self.id
        _ = try? withOpenAL(device, "alSourcef(AL_GAIN)") { alSourcef(id, AL_GAIN, gain) }
    }

    func setPitch(_ pitch: Float) {
        let id = self.id
        _ = try? withOpenAL(device, "alSourcef(AL_PITCH)") { alSourcef(id, AL_PITCH, pitch) }
    }

    package var state: State {
        switch integer(AL_SOURCE_STATE) {
        case AL_PLAYING: return .playing
        case AL_PAUSED: return .paused
        case AL_STOPPED: return .stopped
        default: return .initial
        }
    }

    /// The playback position in frames within the current buffer (or queue).
    var sampleOffset: Int {
        get { Int(integer(AL_SAMPLE_OFFSET)) }
        set {
            let id = self.id
            device.withContext {
                alSourcei(id, AL_SAMPLE_OFFSET, ALint(newValue))
                _ = alGetError()
            }
        }
    }

    // MARK: Streaming

    /// Appends buffers to the source's queue.
    package func queue(_ buffers: [OpenALBuffer]) throws(AudioEngineError) {
        var ids = buffers.map(\.id)
        let id = self.id
        try withOpenAL(device, "alSourceQueueBuffers") { alSourceQueueBuffers(id, ALsizei(ids.count), &ids) }
    }

    /// Takes every buffer the mixer has finished with off the queue, for a caller already inside
    /// `device.withContext` (a refill of many voices under one lock): `body` gets their names in
    /// queue order, and is not called when none finished or the source refused.
    func unqueueProcessedInContext(_ body: (UnsafeBufferPointer<ALuint>) -> Void) {
        var processed: ALint = 0
        alGetSourcei(id, AL_BUFFERS_PROCESSED, &processed)
        guard alGetError() == AL_NO_ERROR, processed > 0 else { return }
        // The names on the stack: this runs for every filtered voice on every refill.
        withUnsafeTemporaryAllocation(of: ALuint.self, capacity: Int(processed)) { ids in
            guard let base = ids.baseAddress else { return }
            base.initialize(repeating: 0, count: Int(processed))
            alSourceUnqueueBuffers(id, processed, base)
            if alGetError() == AL_NO_ERROR { body(UnsafeBufferPointer(ids)) }
        }
    }

    /// Queues the buffers named `ids`, for a caller already inside `device.withContext`.
    /// - Returns: False when the source refused them.
    func queueInContext(_ ids: UnsafeBufferPointer<ALuint>) -> Bool {
        guard let base = ids.baseAddress, !ids.isEmpty else { return true }
        alSourceQueueBuffers(id, ALsizei(ids.count), base)
        return alGetError() == AL_NO_ERROR
    }

    /// For a caller inside `device.withContext`, right after it queued `appended` buffers: a source
    /// found stopped ran dry before they came (it stops only at the end of its queue). OpenAL counts
    /// every buffer of a stopped source as processed, the new ones included, and a play starts
    /// again from the queue's first buffer, replaying the ones before them; so those are taken off
    /// and the new ones queued again, to play from their start. `body` gets the names taken off for
    /// good, in queue order (the new ones too when the source refused them back).
    /// - Returns: Whether the source had stopped: it must be played again.
    func takeOffPlayedAfterRunningDryInContext(
        appended: Int, _ body: (UnsafeBufferPointer<ALuint>) -> Void
    ) -> Bool {
        var state: ALint = 0
        var queued: ALint = 0
        alGetSourcei(id, AL_SOURCE_STATE, &state)
        alGetSourcei(id, AL_BUFFERS_QUEUED, &queued)
        guard alGetError() == AL_NO_ERROR, state == AL_STOPPED else { return false }
        let played = Int(queued) - appended
        guard played > 0 else { return true }
        withUnsafeTemporaryAllocation(of: ALuint.self, capacity: Int(queued)) { ids in
            guard let base = ids.baseAddress else { return }
            base.initialize(repeating: 0, count: Int(queued))
            alSourceUnqueueBuffers(id, queued, base)
            guard alGetError() == AL_NO_ERROR else { return }
            alSourceQueueBuffers(id, ALsizei(appended), base + played)
            let requeued = alGetError() == AL_NO_ERROR
            body(UnsafeBufferPointer(start: base, count: requeued ? played : Int(queued)))
        }
        return true
    }

    /// How many queued buffers the mixer has finished with.
    package var processedBuffers: Int { Int(integer(AL_BUFFERS_PROCESSED)) }

    /// Takes `count` finished buffers off the queue, returning their names in queue order.
    package func unqueue(count: Int) throws(AudioEngineError) -> [ALuint] {
        var ids = [ALuint](repeating: 0, count: count)
        let id = self.id
        try withOpenAL(device, "alSourceUnqueueBuffers") { alSourceUnqueueBuffers(id, ALsizei(count), &ids) }
        return ids
    }
}
