import Glibc
import Synchronization

/// The sound engine: one OpenAL output, a pool of voices, buses, and the clock that drives them.
///
/// Every method may be called from any thread, and every call returns at once: a mutation (a
/// trigger, a stop, a volume, a filter) is checked and written as one `EngineCommand` into a
/// lock-free ring, which the mixing side (the driver thread on a device, ``render(frames:)``
/// offline) carries out in order; a query reads what the mixing side published after its last
/// round. The article "Threads and the real-time contract" says which thread runs what.
///
/// ```swift
/// let engine = try AudioEngine(output: .offline(sampleRate: 48_000, channels: 2))
/// let tone = (0..<4_800).map { Float(sin(Double($0) * 0.06)) * 0.5 }
/// let beep = try engine.makeBuffer(PCMAudio(sampleRate: 48_000, channels: 1, samples: tone), name: "beep")
/// try engine.play(beep, at: .milliseconds(500))
/// let mix = try engine.render(frames: 48_000)  // the beep starts at frame 24,000
/// ```
public final class AudioEngine: Sendable {
    /// Where this engine's mix goes.
    public let output: AudioOutput
    /// The most sounds that can play at once: the device's source count (256 with OpenAL Soft's
    /// defaults), or fewer when the engine was opened with `maxVoices`.
    public let voiceLimit: Int
    /// How long one mix of the device is, as OpenAL reports it (`nil` for offline and silent output).
    public var mixingPeriod: Duration? {
        guard driver.isDevice else { return nil }
        let refresh = device.refresh
        return refresh > 0 ? .microseconds(1_000_000 / refresh) : nil
    }

    /// Whether the device has EFX (OpenAL's effects extension), which shelving filters and reverb
    /// play through. Without it they are accepted and do nothing, and the notice handler is told
    /// once; cutoff filters are the engine's own and work either way.
    public let colourAvailable: Bool

    /// The name of the opened device ("loopback" for offline and silent output).
    public var deviceName: String { device.name }

    /// The rate of the mono loopback device that silent and remote output mix on, nobody hearing it:
    /// OpenAL Soft's lowest. Sources advance through their sounds at the same speed whatever the
    /// device's rate, so voices end and streams drain when they would on a device, for a sixth of a
    /// 48 kHz stereo mix's work. (OpenAL Soft caps a source's step at 255 samples per output frame:
    /// a 192 kHz sound pitched above 10 plays slower on it than on a device.)
    static let quietMixRate = 8_000

    /// The clock rate of silent and remote output: a device's, so times and frames read as there.
    static let quietClockRate = 48_000

    /// Housekeeping runs on this grid of frames while anything fades or glides (5.3 ms at 48 kHz);
    /// otherwise only when something is due: a start, a call, a refill, a sound's predicted end.
    /// Fades and tweens step on it, so a render moved by a whole number of quanta is the same render.
    package static let quantum: Int64 = 256

    /// The device mixing now; replaced when a lost device is reopened.
    var device: OpenALDevice { currentDevice.withLock { $0 } }
    let currentDevice: Locked<OpenALDevice>
    let buffers = BufferRegistry()
    /// Fixed at opening, so the clock keeps its rate across a reopened device.
    public let sampleRate: Int
    /// Channels of the mix (2 for devices and silent output).
    public let channels: Int
    /// The mixing side, which owns the voices, buses, music and device state and carries out every
    /// command; only the thread holding it touches it (``Mixer/run(_:)``).
    let mixer: Mixer
    /// What each sound id plays, under a lock of its own that is never held during OpenAL work: the
    /// loaders (and the bank, under its own lock) point ids at buffers without waiting for a round.
    let sounds = Locked(SoundTable())
    /// Carries triggers to the mixing side without a lock (see ``TriggerPort``).
    let ring: CommandRing
    /// What the mixing side published after its last round: the queries' only source.
    let published = Locked(EngineSnapshot())
    /// What the game last asked of the buses, the space and the pause: the settings' getters read it
    /// (the mixing side never takes this lock).
    let settings = Locked(ControlSettings())
    /// Sees every command carried out (a remote output forwards them); nil for a local engine.
    let commandTap = Locked<CommandTap?>(nil)
    /// Called by the driver thread inside each round, holding the mixer: tests hold the mixing side
    /// there to show that no call waits for it.
    let roundHook = Locked<(@Sendable () -> Void)?>(nil)
    /// The render clock as the mixing side last moved it, for the caller's side to read without a lock.
    let renderedFrame = Atomic<Int64>(0)
    let hub = EventHub()
    /// One-line notices for ``onNotice(_:)``.
    let notices = Broadcast<String>(holding: 64)
    /// When the engine opened, for the wall clock of a device or quiet output.
    let openedAt = WallClock.now()
    /// What turns the mixer and where the mix goes: the one place the kind of output is told apart.
    let driver: any OutputDriver
    /// The session to the player's side, for ``AudioOutput/remote``.
    let remoteLink: Locked<RemoteLink?> = Locked(nil)

    /// Opens an output. It waits while OpenAL opens the device (a sound server's connection, tens
    /// of milliseconds). Remote output also opens the session's terminal, or connects to the
    /// player's forwarded socket, which is local and answers at once or not at all; the greeting and
    /// the catalogue go out on the link's own thread, so a slow or absent player does not hold it.
    /// - Parameters:
    ///   - output: A device, the offline loopback renderer, or silent output.
    ///   - maxVoices: A cap on simultaneous sounds below the device's own, e.g. to budget CPU.
    /// - Throws: ``AudioEngineError/noPlaybackDevice(name:)`` when the device cannot be opened, or
    ///   ``AudioEngineError/unsupportedRenderFormat(sampleRate:channels:)`` for a bad offline format.
    public init(output: AudioOutput = .device(), maxVoices: Int? = nil) throws(AudioEngineError) {
        let noticesSince = LibraryNotices.mark()
        self.output = output
        let device: OpenALDevice
        let driver: any OutputDriver
        let openedAt = self.openedAt
        switch output {
        case .device(let name, let latency):
            device = try OpenALDevice(playback: name, latency: latency)
            driver = DeviceDriver(
                name: name, latency: latency,
                wallClock: WallClock(start: openedAt, sampleRate: device.sampleRate))
        case .offline(let rate, let channels):
            device = try OpenALDevice(loopbackSampleRate: rate, channels: channels)
            driver = OfflineDriver()
        case .silent, .remote:
            device = try OpenALDevice(loopbackSampleRate: Self.quietMixRate, channels: 1)
            // A quiet engine's clock and format are a device's; only its bookkeeping mix is small.
            driver = QuietDriver(
                wallClock: WallClock(start: openedAt, sampleRate: Self.quietClockRate),
                realTime: output == .remote)
        }
        self.driver = driver
        currentDevice = Locked(device)
        colourAvailable = device.hasExtension("ALC_EXT_EFX")
        ring = try CommandRing()
        sampleRate = driver.isHeard ? device.sampleRate : Self.quietClockRate
        channels = driver.isHeard ? device.channels : 2
        voiceLimit = max(1, min(device.sourceLimit, maxVoices ?? .max))
        var state = EngineState(pool: VoicePool(limit: voiceLimit))
        // The device opens with HRTF off; what it says of that is published before the first round.
        state.space.hrtfStatus = HRTFStatus(device.hrtfStatus)
        mixer = Mixer(state: state, driver: driver)
        mixer.attach(to: self)
        published.withLock { $0.hrtf = state.space.hrtfStatus }
        LibraryNotices.attach(notices, since: noticesSince)
        if case .remote = output { try openRemoteLink() }
        driver.start(engine: self)
    }

    /// Opens `preferred`, and when that fails opens silent output instead, telling `notice` why, so a
    /// game keeps running on a machine without sound.
    ///
    /// The user's `SOUNDSTATION_OUTPUT` (`device` or `silent`) and `SOUNDSTATION_DEVICE` apply, as the
    /// notice advises (``AudioOutput/fromEnvironment(default:environment:)``); an unknown
    /// `SOUNDSTATION_OUTPUT` is reported through `notice` and `preferred` is tried as it is.
    /// - Parameters:
    ///   - preferred: The output to try first.
    ///   - environment: The variables to read; the process environment by default.
    ///   - notice: Receives a one-line explanation when the fallback is taken.
    /// - Returns: An engine on `preferred` (as the environment adjusts it) or on ``AudioOutput/silent``.
    /// - Throws: ``AudioEngineError`` only when even silent output cannot be opened.
    public static func openWithFallback(
        _ preferred: AudioOutput, environment: [String: String] = ProcessEnvironment.variables,
        notice: (String) -> Void
    ) throws(AudioEngineError) -> AudioEngine {
        var preferred = preferred
        do {
            preferred = try AudioOutput.fromEnvironment(default: preferred, environment: environment)
        } catch {
            notice(error.description)
        }
        // The fallback engine also hears what the libraries said while the device failed to open.
        let opened = LibraryNotices.$openingSince.withValue(LibraryNotices.mark()) {
            () -> Result<AudioEngine, AudioEngineError> in
            do throws(AudioEngineError) {
                return .success(try AudioEngine(output: preferred))
            } catch {
                if preferred == .silent { return .failure(error) }
                notice("\(error.description) Continuing without sound.")
                return Result { () throws(AudioEngineError) in try AudioEngine(output: .silent) }
            }
        }
        return try opened.get()
    }

    /// Stops every sound and the engine's driver thread, waiting for it, so the process can exit
    /// without OpenAL's exit-time cleanup racing a mix in progress. The engine plays nothing after,
    /// and lets go of every call still scheduled (``schedule(at:_:)``, a music switch waiting for its
    /// bar), so nothing it holds keeps it alive.
    public func shutdown() {
        driver.stop(wait: true)
        stopAll()
        // No driver runs any more (offline, none ever did between renders): this thread carries out
        // what is queued, so that no command's closure keeps the engine alive after it is let go of.
        // Calls scheduled for later never run now; they may hold what holds the engine (a music
        // station's switch on the next bar), so they are let go of, after the mixer's turn.
        let unrun = mixer.run {
            mixer.drainCommands()
            // The stop-all spares a player's closed streams while they play out: not after this.
            mixer.withState { state, events in
                mixer.stopAllVoices(
                    on: nil, fade: 0, sparingClosedStreams: false, in: &state, events: &events)
            }
            return mixer.update { state in
                defer { state.calls = [] }
                return state.calls
            }
        }
        _ = unrun
        // A remote session's last commands go out, then its goodbye.
        closeRemoteLink()
        hub.finish()
        notices.finish()
    }

    deinit {
        driver.stop(wait: false)
        closeRemoteLink(timeout: .milliseconds(200))
        hub.finish()
        notices.finish()
        // Sources go before the device; buffers held by voices go with them, and so do those held
        // by commands never carried out (buffers and stream feeders).
        mixer.withStateWhileFreeing { state in
            ring.drain { command in
                command.retained.map { Unmanaged<AnyObject>.fromOpaque($0).release() }
            }
            // A stream's buffers go here too, after the sources that queued them, even when its
            // decoding worker still holds the stream (``StreamFeeder/releaseBuffers()``).
            let streams = state.pool.voices.compactMap(\.stream)
            state.pool = VoicePool(limit: 0)
            for stream in streams { stream.releaseBuffers() }
        }
    }

    /// The names of the playback devices OpenAL can open.
    /// - Returns: Names to pass to ``AudioOutput/device(name:latency:)``; empty when OpenAL lists none.
    public static func playbackDevices() -> [String] { DeviceList.playback() }

    /// The names of the capture (recording) devices OpenAL can open.
    /// - Returns: The devices' names as OpenAL lists them; empty when there are none.
    public static func captureDevices() -> [String] { DeviceList.capture() }

    /// Uploads decoded audio to the device so it can be played without further work.
    ///
    /// The engine keeps `audio` to upload again should the device be lost and reopened; pass
    /// `reload` (``makeBuffer(_:name:loopPoints:reload:)``) to re-read it from its file instead.
    /// - Parameters:
    ///   - audio: Mono or stereo samples.
    ///   - name: The name events and messages use for it.
    ///   - loopPoints: For looping playback, the frames that repeat (an intro plays once before them);
    ///     `nil` loops the whole sound. The seam is sample-exact (AL_SOFT_loop_points).
    /// - Returns: A buffer that any number of voices can share.
    /// - Throws: ``AudioEngineError`` when OpenAL refuses the data (e.g. out of memory).
    public func makeBuffer(_ audio: PCMAudio, name: String, loopPoints: Range<Int>? = nil)
        throws(AudioEngineError)
        -> SoundBuffer
    {
        try makeBuffer(audio, name: name, loopPoints: loopPoints) { audio }
    }

    /// Uploads decoded audio, saying how to get the same samples again after a device loss.
    /// - Parameters:
    ///   - audio: Mono or stereo samples.
    ///   - name: The name events and messages use for it.
    ///   - loopPoints: The frames a looping voice repeats; `nil` for all.
    ///   - reload: Produces the same samples again (e.g. by decoding the file once more).
    /// - Returns: A buffer that any number of voices can share.
    /// - Throws: ``AudioEngineError`` for bad loop points or when OpenAL refuses the data.
    public func makeBuffer(
        _ audio: PCMAudio, name: String, loopPoints: Range<Int>?,
        reload: @escaping @Sendable () throws -> PCMAudio
    ) throws(AudioEngineError) -> SoundBuffer {
        try makeBuffer(audio, name: name, loopPoints: loopPoints, id: nil, reload: reload)
    }

    /// ``makeBuffer(_:name:loopPoints:reload:)`` under a given id (a bank's, kept across reloads) or,
    /// with `nil`, under a new id that the buffer owns.
    func makeBuffer(
        _ audio: PCMAudio, name: String, loopPoints: Range<Int>?, id: SoundID?,
        origin: MemorySoundOrigin? = .pcm, reload: @escaping @Sendable () throws -> PCMAudio
    ) throws(AudioEngineError) -> SoundBuffer {
        if let loopPoints,
            loopPoints.lowerBound < 0 || loopPoints.upperBound > audio.frameCount || loopPoints.isEmpty
        {
            throw .invalidArgument(
                name: "loop points", value: "\(loopPoints)",
                expected: "a non-empty range within 0..<\(audio.frameCount)")
        }
        let owned = id == nil
        let id = id ?? reserveSoundID(name: name)
        let buffer = try SoundBuffer(
            name: name, id: id, ring: ring, ownsID: owned, audio: audio, device: device,
            loopPoints: loopPoints, reload: reload)
        register(buffer)
        if owned {
            install(id, buffer: buffer, defaults: SoundDefaults())
            // Over SSH a sound made at run time travels as a file, like a catalogue sound (`origin`
            // nil: part of a catalogue sound, whose files travel already).
            if let origin { offerToRemote(audio, name: name, origin: origin) }
        }
        noteCall()
        return buffer
    }

    /// Says the game is active without a command (a load, which comes before its plays), so that a
    /// device's driver, which polls while the game is active, polls again and the plays that follow
    /// post nothing: counted, and a device's driver woken to see it (the post, if it slept, is the
    /// loading thread's). Quiet and offline outputs do not poll and are not woken. Never call it under
    /// a lock a game's call takes.
    func noteCall() {
        ring.noteCall()
        if driver.isDevice { ring.wake() }
    }

    /// Adds `buffer` to the buffers a reopened device is given, moving it first if the device was
    /// replaced while it uploaded (it would otherwise stay on the lost device).
    func register(_ buffer: SoundBuffer) {
        currentDevice.withLock { current in
            if buffer.storage.device !== current, let moved = try? buffer.prepare(for: current) {
                buffer.install(moved)
            }
            buffers.add(buffer)
        }
    }

    /// A new sound id for `name`, with nothing to play yet.
    func reserveSoundID(name: String) -> SoundID {
        sounds.withLock { $0.reserve(name: name) }
    }

    /// Points `id` at `buffer` (or at nothing) for triggers by id, and marks it playable or not.
    /// The previous buffer, if any, is let go of after the lock.
    func install(_ id: SoundID, buffer: SoundBuffer?, defaults: SoundDefaults) {
        sounds.withLock { $0.install(id, buffer: buffer, defaults: defaults) }
        ring.setReady(id, buffer != nil)
    }

    /// An object that keeps the trigger port's memory valid for as long as it is held, even after
    /// the engine is freed (triggers then go nowhere), for a binding whose handles outlive engines.
    @_spi(Bindings) public var triggerLifetime: any AnyObject & Sendable { ring }

    /// The port that triggers sounds by id from any thread or a signal handler.
    public var triggerPort: TriggerPort { TriggerPort(core: ring.core, sampleRate: Double(sampleRate)) }

    /// The engine clock: the frames rendered so far for offline output, time since opening for a
    /// device, silent and remote output. Every `at:` in the API is a time on this clock.
    public var time: Duration { .frames(frameNow, rate: sampleRate) }

    /// The engine clock as a frame, read without a lock, as the driver keeps it
    /// (``OutputDriver/clockFrame(rendered:)``): the wall clock on a device, what the mixer has
    /// rendered offline, the wall clock at most a quarter of a second ahead of the quiet mix.
    var frameNow: Int64 { driver.clockFrame(rendered: renderedFrame.load(ordering: .relaxed)) }

    /// The render-clock frame for `time`, rounded (`round(seconds * sampleRate)`), clamped to what the
    /// clock can hold (a negative time is frame 0).
    func frame(for time: Duration) -> Int64 {
        Self.frame(forSeconds: time.inSeconds, rate: Double(sampleRate))
    }

    /// ``frame(forSeconds:)`` at `rate`: plain arithmetic, so a signal handler may use it
    /// (``TriggerPort``).
    static func frame(forSeconds seconds: Double, rate: Double) -> Int64 {
        let frame = (seconds * rate).rounded()
        return frame.isNaN || frame < 0 ? 0 : Int64(min(frame, 9.0e18))
    }

    /// A new stream of every ``SoundEvent`` from now on; each call returns an independent stream.
    /// - Returns: A stream that keeps the newest 4096 events not yet read and ends at ``shutdown()``;
    ///   stop iterating it (or cancel its task) to unsubscribe.
    public func events() -> AsyncStream<SoundEvent> { hub.stream() }

    /// Calls `handler` for every ``SoundEvent`` (on the thread that noticed it; keep it short).
    ///
    /// The engine keeps the closure until the subscription is cancelled or ``shutdown()``; capture
    /// the engine or a station weakly in it, or cancel it, so they can be freed.
    /// - Parameter handler: The closure to call.
    /// - Returns: A subscription whose `cancel()` stops the calls.
    @discardableResult
    public func onEvent(_ handler: @escaping @Sendable (SoundEvent) -> Void) -> EventSubscription {
        let id = hub.add(handler)
        return EventSubscription { [weak hub] in hub?.remove(id) }
    }

    /// Calls `handler` for ``SoundEvent/deviceLost(reason:time:)`` and
    /// ``SoundEvent/deviceRestored(device:time:)`` only, as ``onEvent(_:)`` does: for the library's
    /// own watchers, which so do not make every trigger build the voices' events.
    func onDeviceEvent(_ handler: @escaping @Sendable (SoundEvent) -> Void) -> EventSubscription {
        let id = hub.add(handler, deviceOnly: true)
        return EventSubscription { [weak hub] in hub?.remove(id) }
    }

    /// How many sound buffers are alive (loaded and not yet freed).
    public var bufferCount: Int { buffers.live.count }

    /// Whether the mixer turns on the caller of ``render(frames:)`` (offline output), as the SSH
    /// player's speaker needs.
    package var isOffline: Bool { driver.rendersOnCaller }

    /// The engine-clock time of `frame`, for events.
    func time(ofFrame frame: Int64) -> Duration { .frames(frame, rate: sampleRate) }
}
