import Glibc
import Observation
import SoundStation

/// Plays voice notes through an ``AudioEngine``'s voice bus: play, pause, resume, stop and seek,
/// and one finished event per playback.
///
/// Notes play on ``Bus/voice``, so the engine's ducking dips the game's music while one plays.
/// A note up to ``streamingThreshold`` long is decoded whole into one engine buffer (a minute of
/// 12 kHz mono is under 3 MB); a longer one streams from its file through the engine's streaming
/// queue (``SoundStream``), so an hour-long note holds a few hundred kilobytes, not hundreds of
/// megabytes. Pausing, seeking and ``currentTime`` are exact to the frame either way (``currentTime``
/// is read from the engine's last mixing round, so it follows a seek once the mixer has carried it
/// out: at the next render offline, within a millisecond on a device). Safe to use
/// from any thread.
///
/// ```swift
/// let player = VoiceNotePlayer(engine: engine)
/// player.onFinished { print("\($0.note.name) \($0.reason)") }
/// try player.play(note)
/// ```
@Observable
public final class VoiceNotePlayer: Sendable {
    /// The engine notes play on.
    public let engine: AudioEngine

    /// Notes longer than this stream from their files instead of being decoded whole.
    public static let streamingThreshold: Duration = .seconds(60)

    private struct State {
        var status = PlaybackStatus()
        var voice: VoiceHandle?
        var sampleRate = 1
        /// Voices that finished before ``play(_:)`` recorded them as current (a very short note on a
        /// busy machine): checked when it does, so no end goes unreported.
        var recentlyFinished: [VoiceHandle: SoundEvent.FinishReason] = [:]
    }

    private let state = Locked(State())
    private let broadcast = Broadcast<PlaybackFinished>()
    private let subscription = Locked<EventSubscription?>(nil)

    /// Creates a player on `engine`; it listens to the engine's events for the ends of its notes.
    /// - Parameter engine: A device engine to be heard, or an offline one in tests.
    public init(engine: AudioEngine) {
        self.engine = engine
        // A handler rather than an events() stream: it runs on the engine's own thread as the voice
        // ends (during render() offline), so the end is reported at once even when every task
        // thread is busy with game work.
        let handler = engine.onEvent { [weak self] event in
            switch event {
            case .finished(let voice, _, let reason, _): self?.voiceFinished(voice, reason: reason)
            // Every voice busy with sounds that matter more: the note ends before it began.
            case .refused(let voice, _, _): self?.voiceFinished(voice, reason: .stopped)
            default: break
            }
        }
        subscription.withLock { $0 = handler }
    }

    deinit {
        subscription.withLock { $0?.cancel() }
        broadcast.finish()
    }

    /// What is playing, as one snapshot.
    public var status: PlaybackStatus {
        access(keyPath: \.status)
        return state.withLock { $0.status }
    }

    /// True while a note is loaded, paused or not.
    public var isPlaying: Bool { status.isPlaying }

    /// True while the note is paused.
    public var isPaused: Bool { status.isPaused }

    /// The note's length (`.zero` when idle).
    public var duration: Duration { status.duration }

    /// The note being played or paused.
    public var note: VoiceNote? { status.note }

    /// How far into the note playback is; read it on a timer to draw progress (it changes too often
    /// to be observed).
    public var currentTime: Duration {
        access(keyPath: \.status)
        let (voice, rate) = state.withLock { ($0.voice, $0.sampleRate) }
        guard let voice, let frame = engine.position(of: voice) else { return .zero }
        return .frames(Int64(frame), rate: rate)
    }

    /// A new stream of every playback end from now on; each call returns an independent stream.
    /// - Returns: A stream that keeps the newest 4096 ends not yet read and ends when the player is
    ///   freed; stop iterating it (or cancel its task) to unsubscribe.
    public func finishedEvents() -> AsyncStream<PlaybackFinished> { broadcast.stream() }

    /// Calls `handler` at every playback end, on the thread that noticed it; keep it short.
    /// - Parameter handler: The closure.
    /// - Returns: A subscription whose `cancel()` stops the calls, as ``AudioEngine/onEvent(_:)``'s.
    @discardableResult
    public func onFinished(_ handler: @escaping @Sendable (PlaybackFinished) -> Void) -> EventSubscription {
        broadcast.add(handler)
    }

    /// Plays a note from its start, stopping whatever this player was playing.
    /// - Parameter note: A note from a ``VoiceNoteLibrary``.
    /// - Throws: ``VoiceNoteError/unreadable(path:reason:)`` or ``VoiceNoteError/playbackFailed(path:reason:)``.
    public func play(_ note: VoiceNote) throws(VoiceNoteError) {
        let sound = try NoteSound(
            note, engine: engine, streamed: note.duration > Self.streamingThreshold)
        var status = PlaybackStatus()
        status.note = note
        status.isPlaying = true
        status.duration = sound.duration
        // The start and the swap of the current voice happen under the player's lock (the trigger
        // never waits), so two calls at once leave exactly one note playing, the one tracked; the
        // note it replaced is stopped after the lock.
        let outcome = mutate {
            state -> (started: Bool, replaced: (VoiceHandle, VoiceNote?)?, early: SoundEvent.FinishReason?) in
            guard let voice = try? sound.play(on: engine, options: PlayOptions(priority: 200, bus: .voice))
            else {
                return (false, nil, nil)
            }
            let replaced = state.voice.map { ($0, state.status.note) }
            if let early = state.recentlyFinished.removeValue(forKey: voice) {
                state.voice = nil
                state.status = PlaybackStatus()
                return (true, replaced, early)
            }
            state.status = status
            state.voice = voice
            state.sampleRate = sound.sampleRate
            return (true, replaced, nil)
        }
        if let (old, oldNote) = outcome.replaced {
            engine.stop(old)
            if let oldNote { broadcast.send(PlaybackFinished(note: oldNote, reason: .stopped)) }
        }
        guard outcome.started else {
            throw .playbackFailed(path: note.path, reason: "the engine is not keeping up with its triggers")
        }
        if let early = outcome.early {
            broadcast.send(PlaybackFinished(note: note, reason: Self.reason(early)))
        }
    }

    /// Plays a file that need not be in a library.
    /// - Parameter path: A `.ogg` or `.wav` file.
    /// - Throws: ``VoiceNoteError/unreadable(path:reason:)`` when the file is missing or not a
    ///   readable note, or the errors of ``play(_:)``.
    public func play(fileAt path: String) throws(VoiceNoteError) {
        try play(VoiceNote(path: path))
    }

    /// Pauses where it is.
    public func pause() {
        guard let voice = state.withLock({ $0.status.isPaused ? nil : $0.voice }) else { return }
        engine.pause(voice)
        mutate { $0.status.isPaused = true }
    }

    /// Resumes a paused note from where it paused.
    public func resume() {
        guard let voice = state.withLock({ $0.status.isPaused ? $0.voice : nil }) else { return }
        engine.resume(voice)
        mutate { $0.status.isPaused = false }
    }

    /// Pauses a playing note or resumes a paused one.
    public func togglePause() {
        if isPaused { resume() } else { pause() }
    }

    /// Stops the note; a finished event with ``PlaybackFinished/Reason/stopped`` follows.
    public func stop() {
        let stopped = mutate { state -> (VoiceHandle, VoiceNote?)? in
            guard let voice = state.voice else { return nil }
            defer {
                state.voice = nil
                state.status = PlaybackStatus()
            }
            return (voice, state.status.note)
        }
        guard let (voice, note) = stopped else { return }
        engine.stop(voice)
        if let note { broadcast.send(PlaybackFinished(note: note, reason: .stopped)) }
    }

    /// Jumps to a time in the note, staying paused if it was paused.
    /// - Parameter time: The time from the note's start, clamped to the note.
    public func seek(to time: Duration) {
        let (voice, rate) = state.withLock { ($0.voice, $0.sampleRate) }
        guard let voice else { return }
        // A time before the note's start is its start.
        try? engine.seek(voice, toFrame: max(0, Int((time.inSeconds * Double(rate)).rounded())))
    }

    private func voiceFinished(_ voice: VoiceHandle, reason: SoundEvent.FinishReason) {
        let ended = mutate { state -> VoiceNote? in
            guard state.voice == voice else {
                // Bounded: only a voice started but not yet recorded can be waiting here.
                if state.recentlyFinished.count > 32 { state.recentlyFinished.removeAll() }
                state.recentlyFinished[voice] = reason
                return nil
            }
            defer {
                state.voice = nil
                state.status = PlaybackStatus()
            }
            return state.status.note
        }
        if let ended { broadcast.send(PlaybackFinished(note: ended, reason: Self.reason(reason))) }
    }

    private func mutate<T>(_ change: (inout State) -> T) -> T {
        withMutation(keyPath: \.status) { state.withLock { change(&$0) } }
    }

    private static func reason(_ reason: SoundEvent.FinishReason) -> PlaybackFinished.Reason {
        reason == .ended ? .ended : .stopped
    }
}

/// What a note plays from: decoded whole into one buffer, or streamed from its file.
private enum NoteSound {
    case decoded(SoundBuffer)
    case streamed(SoundStream)

    /// Decodes `note` into a buffer, or opens it as a stream.
    /// - Throws: ``VoiceNoteError/unreadable(path:reason:)`` when it cannot be decoded,
    ///   ``VoiceNoteError/playbackFailed(path:reason:)`` when the engine refuses the buffer.
    init(_ note: VoiceNote, engine: AudioEngine, streamed: Bool) throws(VoiceNoteError) {
        if streamed {
            do {
                self = .streamed(try engine.makeStream(fileAt: note.path, name: note.fileName))
            } catch {
                throw .unreadable(path: note.path, reason: error.description)
            }
            return
        }
        let audio: PCMAudio
        do {
            audio = try AudioDecoder.decode(fileAt: note.path)
        } catch {
            throw .unreadable(path: note.path, reason: error.description)
        }
        do {
            self = .decoded(try engine.makeBuffer(audio, name: note.fileName))
        } catch {
            throw .playbackFailed(path: note.path, reason: error.description)
        }
    }

    var sampleRate: Int {
        switch self {
        case .decoded(let buffer): buffer.sampleRate
        case .streamed(let stream): stream.info.sampleRate
        }
    }

    /// Seconds.
    var duration: Duration {
        switch self {
        case .decoded(let buffer): buffer.duration
        case .streamed(let stream): stream.duration
        }
    }

    /// Starts it; never waits and sends no event on the caller's thread (both go through the
    /// engine's command ring), so the player may call it under its own lock.
    func play(on engine: AudioEngine, options: PlayOptions) throws(AudioEngineError) -> VoiceHandle? {
        switch self {
        case .decoded(let buffer): try engine.play(buffer, options: options)
        case .streamed(let stream): try engine.play(stream, options: options)
        }
    }
}
