import Glibc
import Observation
import SoundStation
import Synchronization

/// Records voice notes from a capture device into a ``VoiceNoteLibrary``, crash-safe: what was
/// recorded survives a crash, a kill or a full disk.
///
/// ``start(limit:)`` opens the device and a `recording-<unix time>.ogg.part` file, and a thread of
/// its own moves samples from the device to the encoder every 25 ms and flushes the file to disk
/// twice a second, so a crash or power cut loses at most the last half second or so. ``stop()``
/// finishes the file, renames it to its final name and adds it to the library.
///
/// Every member may be used from any thread; observers (SwiftUI-style views, or
/// `withObservationTracking`) see ``status`` change on the recording thread.
///
/// ```swift
/// let library = try VoiceNoteLibrary()
/// let recorder = VoiceNoteRecorder(library: library)
/// try recorder.start()
/// // ... show recorder.elapsed and recorder.level ...
/// let note = try recorder.stop()
/// ```
@Observable
public final class VoiceNoteRecorder: Sendable {
    /// Where finished notes go.
    public let library: VoiceNoteLibrary
    /// The capture device's name, or nil for the default one.
    public let device: String?

    private struct Session {
        let control: RecordingControl
        let result: Completion<Result<VoiceNote, VoiceNoteError>>
    }

    private struct State {
        var settings: VoiceNoteSettings
        var status = RecordingStatus()
        var session: Session?
    }

    private let state: Locked<State>

    /// Creates a recorder; nothing is opened until ``start(limit:)``.
    /// - Parameters:
    ///   - library: The folder notes are recorded into.
    ///   - settings: Rate, channels, quality and format; 12000 Hz mono Ogg Vorbis at high quality by default.
    ///   - device: A name from ``VoiceNoteRecorder/captureDevices()``, or nil for the default device.
    public init(
        library: VoiceNoteLibrary, settings: VoiceNoteSettings = VoiceNoteSettings(), device: String? = nil
    ) {
        self.library = library
        self.device = device
        state = Locked(State(settings: settings))
    }

    /// The names of the capture devices that can be recorded from.
    /// - Returns: Names to pass as `device`, as OpenAL lists them; empty when there are none.
    public static func captureDevices() -> [String] { AudioEngine.captureDevices() }

    /// The settings the next recording uses; changing them during a recording affects the next one.
    public var settings: VoiceNoteSettings {
        get {
            access(keyPath: \.settings)
            return state.withLock { $0.settings }
        }
        set {
            withMutation(keyPath: \.settings) { state.withLock { $0.settings = newValue } }
        }
    }

    /// What the recorder is doing, as one consistent snapshot.
    public var status: RecordingStatus {
        access(keyPath: \.status)
        return state.withLock { $0.status }
    }

    /// True from a successful start until the note's file is finished.
    public var isRecording: Bool { status.isRecording }

    /// How much has been recorded so far (counted samples over the rate).
    public var elapsed: Duration { status.elapsed }

    /// The latest input level, for a meter.
    public var level: InputLevel { status.level }

    /// Starts recording a new note and returns once the device and the file are open.
    /// - Parameter limit: Stop by itself after exactly this much audio (`round(seconds * sampleRate)`
    ///   frames); nil records until ``stop()``.
    /// - Returns: The new note's name.
    /// - Throws: ``VoiceNoteError/alreadyRecording(path:)``, ``VoiceNoteError/invalidSettings(reason:)``,
    ///   ``VoiceNoteError/cannotOpenDevice(device:reason:)`` or ``VoiceNoteError/cannotCreateFile(path:reason:)``.
    @discardableResult
    public func start(limit: Duration? = nil) throws(VoiceNoteError) -> String {
        let seconds = limit?.inSeconds
        let settings = self.settings
        try settings.validate()
        var frameLimit: Int?
        if let seconds {
            guard seconds.isFinite, seconds > 0, seconds <= 86_400 else {
                throw .invalidSettings(reason: "a length of \(seconds) s; use more than 0 and at most 86400")
            }
            frameLimit = Int((seconds * Double(settings.sampleRate)).rounded())
        }
        let session = Session(control: RecordingControl(), result: Completion())
        let claimed = state.withLock { state -> Bool in
            // A recording that ended by itself (its length reached) needs no stop() before the next.
            if let running = state.session, running.result.current == nil { return false }
            state.session = session
            return true
        }
        guard claimed else { throw .alreadyRecording(path: status.path ?? library.directory) }

        let opened = Completion<Result<RecordingLoop.Opened, VoiceNoteError>>()
        let loop = RecordingLoop(
            settings: settings, device: device, frameLimit: frameLimit, library: library,
            control: session.control, opened: opened, recorder: self)
        let thread = PosixThread { loop.run() }
        thread.name = "voice-note-recorder"
        thread.start()

        switch opened.wait() {
        case .success(let info):
            publish { status in
                status = RecordingStatus()
                status.isRecording = true
                status.name = info.name
                status.path = info.path
                status.device = info.device
            }
            return info.name
        case .failure(let error):
            state.withLock { $0.session = nil }
            throw error
        }
    }

    /// Stops recording, finishes the file and adds the note to the library; returns once the file is
    /// complete (a few milliseconds). After a recording that ended by itself (its length reached, or
    /// an error) this returns that outcome.
    /// - Returns: The finished note.
    /// - Throws: ``VoiceNoteError/writeFailed(path:reason:keptSeconds:)`` or
    ///   ``VoiceNoteError/deviceDisconnected(device:path:keptSeconds:)`` when the recording ended early
    ///   (what was recorded is in the library all the same), or ``VoiceNoteError/invalidSettings(reason:)``
    ///   when nothing was recording.
    @discardableResult
    public func stop() throws(VoiceNoteError) -> VoiceNote {
        guard let session = state.withLock({ $0.session }) else {
            throw .invalidSettings(reason: "stop() was called but nothing is recording")
        }
        session.control.requestStop()
        let result = session.result.wait()
        state.withLock { state in
            if state.session?.result === session.result { state.session = nil }
        }
        return try result.get()
    }

    /// Waits until the current recording ends (its length reached, ``stop()`` called, or an error).
    /// - Returns: The finished note.
    /// - Throws: As ``stop()``, when the recording ended early; ``VoiceNoteError/invalidSettings(reason:)``
    ///   when nothing was recording.
    public func finished() async throws(VoiceNoteError) -> VoiceNote {
        guard let session = state.withLock({ $0.session }) else {
            throw .invalidSettings(reason: "finished() was awaited but nothing is recording")
        }
        let result = await session.result.value()
        state.withLock { state in
            if state.session?.result === session.result { state.session = nil }
        }
        return try result.get()
    }

    /// Changes the observable status; called by the recording thread.
    func publish(_ change: (inout RecordingStatus) -> Void) {
        withMutation(keyPath: \.status) {
            state.withLock { change(&$0.status) }
        }
    }

    /// Records the outcome of the recording thread and wakes whoever waits for it.
    func complete(_ result: Result<VoiceNote, VoiceNoteError>, control: RecordingControl) {
        let session = state.withLock { state -> Session? in
            guard let session = state.session, session.control === control else { return nil }
            return session
        }
        publish { status in
            status.isRecording = false
            if case .failure(let error) = result { status.lastError = error }
        }
        session?.result.complete(result)
    }
}

/// The flag ``VoiceNoteRecorder/stop()`` raises for the recording thread.
final class RecordingControl: Sendable {
    private let stopFlag = Atomic<Bool>(false)

    /// Asks the thread to finish up.
    func requestStop() { stopFlag.store(true, ordering: .releasing) }

    /// Whether a stop was asked for.
    var isStopRequested: Bool { stopFlag.load(ordering: .acquiring) }
}
