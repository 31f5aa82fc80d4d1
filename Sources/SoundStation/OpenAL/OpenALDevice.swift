import COpenAL
import Glibc

/// Owns one OpenAL device and the single context the engine mixes in.
///
/// `@unchecked Sendable`: the handles never change after `init`, OpenAL Soft serialises calls on one
/// device and context internally, and every caller selects the context for its own thread with
/// ``withCurrentContext(_:)`` (ALC_EXT_thread_local_context), so engines on different threads never
/// interfere, and selects it again no longer than its calls last.
package final class OpenALDevice: @unchecked Sendable {
    /// Whether the device plays by itself or mixes only when asked.
    enum Kind { case playback, loopback }

    let kind: Kind
    package let name: String
    let sampleRate: Int
    let channels: Int
    /// How many sources the device lets us create: the ceiling of the voice pool.
    let sourceLimit: Int
    private let device: OpaquePointer
    private let context: OpaquePointer
    /// Serialises this device's AL calls with their error reads: OpenAL Soft keeps one error state per
    /// context, not per thread, so without it one thread's `alGetError` could swallow, or be blamed
    /// for, another's error. Recursive, because a call made while one is in progress (a source freed
    /// inside a batch) must not deadlock. Never taken by the trigger, which makes no AL call.
    private let calls = RecursiveLock()
    /// Frames each reverb cross-fade still running has been rendered through (loopback only).
    private let reverbFades = Locked<[Int]>([])

    /// OpenAL Soft prints its own errors, and ALSA (a backend it tries) prints through its error
    /// handler, on the game's terminal unless told not to: ``LibraryNotices`` sets their hooks before
    /// OpenAL's first call and turns what they say into notices.
    static var quietLibraryLog: Void { LibraryNotices.install() }

    /// Opens a real playback device with the period `latency` asks for.
    ///
    /// OpenAL Soft 1.19 passes ALC_REFRESH to backends that take it (ALSA), but its PulseAudio
    /// backend sizes its periods from the stream the server grants, which libpulse sizes from
    /// `PULSE_LATENCY_MSEC` when the stream connects: for ``OutputLatency/low`` that variable is set
    /// to 10 ms while the device opens (unless the user set it), under a lock so two engines opening
    /// at once do not race on the environment.
    package init(playback name: String?, latency: OutputLatency = .normal) throws(AudioEngineError) {
        Self.quietLibraryLog
        let opened = Self.opening.withLock { _ -> (OpaquePointer, OpaquePointer)? in
            let hint = latency == .low && getenv("PULSE_LATENCY_MSEC") == nil
            if hint { setenv("PULSE_LATENCY_MSEC", "10", 1) }
            defer { if hint { unsetenv("PULSE_LATENCY_MSEC") } }
            guard let device = alcOpenDevice(name) else { return nil }
            let attributes: [ALCint] = [
                ALC_OUTPUT_LIMITER_SOFT, ALC_TRUE, ALC_HRTF_SOFT, ALC_FALSE, ALC_REFRESH, latency.refresh, 0,
            ]
            guard let context = alcCreateContext(device, attributes) else {
                alcCloseDevice(device)
                return nil
            }
            return (device, context)
        }
        guard let (device, context) = opened else { throw .noPlaybackDevice(name: name) }
        self.kind = .playback
        self.device = device
        self.context = context
        self.name = Self.string(device, ALC_ALL_DEVICES_SPECIFIER) ?? name ?? "default"
        self.sampleRate = Int(Self.integer(device, ALC_FREQUENCY) ?? 48_000)
        self.channels = 2
        self.sourceLimit = Self.sourceLimit(device)
    }

    /// Held while a playback device opens (see ``init(playback:latency:)``).
    private static let opening = Locked(())

    /// Opens OpenAL Soft's loopback device rendering float samples at the given format.
    ///
    /// OpenAL Soft's limiter stays off here: its 1 ms lookahead would put every sound started between
    /// two renders 48 frames late. Offline output is kept within ±1 by ``SoftClipper`` instead, and
    /// real devices keep the limiter.
    init(loopbackSampleRate sampleRate: Int, channels: Int) throws(AudioEngineError) {
        Self.quietLibraryLog
        guard (8_000...192_000).contains(sampleRate), channels == 1 || channels == 2 else {
            throw .unsupportedRenderFormat(sampleRate: sampleRate, channels: channels)
        }
        guard alcIsExtensionPresent(nil, "ALC_SOFT_loopback") != 0,
            let device = alcLoopbackOpenDeviceSOFT(nil)
        else { throw .loopbackUnavailable }
        let layout = channels == 1 ? ALC_MONO_SOFT : ALC_STEREO_SOFT
        guard alcIsRenderFormatSupportedSOFT(device, ALCsizei(sampleRate), layout, ALC_FLOAT_SOFT) != 0 else {
            alcCloseDevice(device)
            throw .unsupportedRenderFormat(sampleRate: sampleRate, channels: channels)
        }
        let attributes: [ALCint] = [
            ALC_FORMAT_CHANNELS_SOFT, layout, ALC_FORMAT_TYPE_SOFT, ALC_FLOAT_SOFT,
            ALC_FREQUENCY, ALCint(sampleRate), ALC_OUTPUT_LIMITER_SOFT, ALC_FALSE,
            ALC_HRTF_SOFT, ALC_FALSE, 0,
        ]
        guard let context = alcCreateContext(device, attributes) else {
            alcCloseDevice(device)
            throw .unsupportedRenderFormat(sampleRate: sampleRate, channels: channels)
        }
        self.kind = .loopback
        self.device = device
        self.context = context
        self.name = "loopback"
        self.sampleRate = sampleRate
        self.channels = channels
        self.sourceLimit = Self.sourceLimit(device)
    }

    deinit {
        // Tear down in reverse order of creation; the owner has already deleted sources and buffers.
        if alcGetThreadContext() == context { alcSetThreadContext(nil) }
        alcDestroyContext(context)
        alcCloseDevice(device)
    }

    /// Runs `body` on this device's context with its AL lock held: every `al*` call and the
    /// `alGetError` that checks it go through here (``withOpenAL(_:_:_:)``).
    ///
    /// The context is selected for the call only, then the thread's previous one is selected again:
    /// a thread-local context holds a reference to the context and through it to the device, so a
    /// context left current on a thread that outlives the engine (a pool thread that preloaded, the
    /// game's thread) kept the device, and its sound server stream, open after the engine closed,
    /// until process exit, where OpenAL Soft's own teardown then raced the device's backend thread
    /// (`LockLists` assertion). Threads that mix (the driver's, a render's caller) select it once
    /// for the whole of their work with ``withCurrentContext(_:)``, so their calls switch nothing.
    package func withContext<T>(_ body: () -> T) -> T {
        calls.lock()
        defer { calls.unlock() }
        return withCurrentContext(body)
    }

    /// Runs `body` with this device's context selected on the current thread, and selects the
    /// thread's previous context (usually none) again after it: nothing of this device stays
    /// referenced by the thread. Nested calls on the same context switch nothing.
    func withCurrentContext<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        let previous = alcGetThreadContext()
        guard previous != context else { return try body() }
        alcSetThreadContext(context)
        defer {
            // A previous context destroyed meanwhile cannot be selected again: select none.
            if alcSetThreadContext(previous) == 0 { alcSetThreadContext(nil) }
        }
        return try body()
    }

    /// Lets go of whatever context this thread selected, before the thread ends (OpenAL warns about
    /// a context still current on a finished thread).
    package static func releaseThreadContext() {
        if alcGetThreadContext() != nil { alcSetThreadContext(nil) }
    }

    /// Mixes `frames` frames into `buffer` (loopback only), which holds `frames * channels` floats.
    ///
    /// OpenAL Soft 1.19's reverb cross-fades its delay lines over its first 128 frames (a reverb
    /// attached, or its density, diffusion or decay changed), in steps cut to multiples of 4 except a
    /// call's last. A call that ends mid-fade at a count not a multiple of 4, followed by a longer
    /// one, leaves it a step of 1-3 frames that it cuts to 0, and its filter, told a count is never
    /// 0, runs off its buffer (SIGSEGV). So while such a fade is at an odd count, a call that would
    /// pass its end is cut at its end, which OpenAL then reaches in a call's last step: the
    /// samples are the same, only OpenAL's steps fall elsewhere.
    func render(into buffer: UnsafeMutablePointer<Float>, frames: Int) {
        var done = 0
        while done < frames {
            let piece = reverbFades.withLock { fades -> Int in
                var piece = frames - done
                for run in fades where run % 4 != 0 { piece = min(piece, Self.reverbFadeFrames - run) }
                fades = fades.map { $0 + piece }.filter { $0 < Self.reverbFadeFrames }
                return piece
            }
            alcRenderSamplesSOFT(device, buffer + done * channels, ALCsizei(piece))
            done += piece
        }
    }

    /// Notes that a reverb's cross-fade begins with the next render (see ``render(into:frames:)``).
    func reverbFadeBegins() {
        guard kind == .loopback else { return }
        reverbFades.withLock { $0.append(0) }
    }

    /// OpenAL Soft's reverb cross-fade, in frames (its `FADE_SAMPLES`).
    static let reverbFadeFrames = 128

    /// Turns HRTF on or off by resetting the device with its own attributes (ALC_SOFT_HRTF); sources
    /// and buffers stay. Returns the ALC_HRTF_STATUS_SOFT that results, or nil without the extension.
    func resetHRTF(_ enabled: Bool) -> ALCint? {
        guard hasExtension("ALC_SOFT_HRTF") else { return nil }
        let hrtf = enabled ? ALC_TRUE : ALC_FALSE
        var attributes: [ALCint]
        switch kind {
        case .loopback:
            attributes = [
                ALC_FORMAT_CHANNELS_SOFT, channels == 1 ? ALC_MONO_SOFT : ALC_STEREO_SOFT,
                ALC_FORMAT_TYPE_SOFT,
                ALC_FLOAT_SOFT, ALC_FREQUENCY, ALCint(sampleRate), ALC_OUTPUT_LIMITER_SOFT, ALC_FALSE,
            ]
        case .playback:
            attributes = [ALC_OUTPUT_LIMITER_SOFT, ALC_TRUE]
            if refresh > 0 { attributes += [ALC_REFRESH, ALCint(refresh)] }
        }
        attributes += [ALC_HRTF_SOFT, hrtf, 0]
        let device = self.device
        return withContext { () -> ALCint? in
            guard alcResetDeviceSOFT(device, attributes) != 0 else { return nil }
            return Self.integer(device, ALC_HRTF_STATUS_SOFT)
        }
    }

    /// ALC_HRTF_STATUS_SOFT now, or nil without the extension.
    var hrtfStatus: ALCint? {
        hasExtension("ALC_SOFT_HRTF") ? Self.integer(device, ALC_HRTF_STATUS_SOFT) : nil
    }

    /// Whether the device has the ALC extension `name` (e.g. ALC_EXT_EFX).
    func hasExtension(_ name: String) -> Bool { alcIsExtensionPresent(device, name) != 0 }

    /// Mixes per second (ALC_REFRESH): the sample rate divided by the period's frames.
    package var refresh: Int { Int(Self.integer(device, ALC_REFRESH) ?? 0) }

    /// False once the device was unplugged or its server went away (ALC_EXT_disconnect).
    var isConnected: Bool {
        (Self.integer(device, ALC_CONNECTED) ?? 1) != 0
    }

    private static func sourceLimit(_ device: OpaquePointer) -> Int {
        let mono = Int(integer(device, ALC_MONO_SOURCES) ?? 255)
        let stereo = Int(integer(device, ALC_STEREO_SOURCES) ?? 1)
        return max(mono + stereo, 1)
    }

    private static func integer(_ device: OpaquePointer, _ parameter: ALCenum) -> ALCint? {
        var value: ALCint = 0
        alcGetIntegerv(device, parameter, 1, &value)
        return alcGetError(device) == ALC_NO_ERROR ? value : nil
    }

    private static func string(_ device: OpaquePointer?, _ parameter: ALCenum) -> String? {
        guard let pointer = alcGetString(device, parameter) else { return nil }
        return String(cString: pointer)
    }
}
