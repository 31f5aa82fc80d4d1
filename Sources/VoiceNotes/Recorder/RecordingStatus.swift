/// What a ``VoiceNoteRecorder`` is doing, as one value so a view reads a consistent snapshot.
public struct RecordingStatus: Sendable, Equatable {
    /// True from a successful start until the file is finished.
    public var isRecording = false
    /// The note's name while recording (and after, until the next start).
    public var name: String?
    /// The unfinished file being written.
    public var path: String?
    /// True once the device has delivered its first samples. A sound server may take a moment to
    /// start the stream (PulseAudio through OpenAL Soft takes about two seconds the first time a
    /// process records); a view can show "starting" until then, and nothing before it is recorded.
    public var inputStarted = false
    /// Frames captured and written.
    public var frames = 0
    /// The audio written: counted samples over the rate, not wall time.
    public var elapsed = Duration.zero
    /// The level of the latest block, for a meter.
    public var level = InputLevel.silence
    /// Bytes on disk so far.
    public var bytesWritten = 0
    /// The capture device's name, once open.
    public var device: String?
    /// Why the last recording stopped early, if it did.
    public var lastError: VoiceNoteError?

    /// Creates an idle status.
    public init() {}
}
