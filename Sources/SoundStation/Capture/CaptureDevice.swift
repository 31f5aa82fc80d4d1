import COpenAL

/// Records from an OpenAL capture device (a microphone, or a sound server's monitor source).
///
/// Samples collect in OpenAL's ring buffer once ``start()`` is called; ``read(maxFrames:)`` drains what has
/// arrived. Not `Sendable`: one owner (a recorder's thread) drives it.
public final class CaptureDevice {
    /// The opened device's name.
    public let name: String
    /// Frames per second.
    public let sampleRate: Int
    /// 1 or 2.
    public let channels: Int
    private let device: OpaquePointer
    private var isRunning = false

    /// Opens a capture device.
    /// - Parameters:
    ///   - name: A name from ``AudioEngine/captureDevices()``, or `nil` for the default.
    ///   - sampleRate: Frames per second to record at.
    ///   - channels: 1 (mono) or 2 (stereo).
    ///   - buffer: How much OpenAL may hold between reads before it drops samples (at least a second).
    /// - Throws: ``CaptureError/cannotOpen(name:reason:)`` with what to check.
    public init(
        name: String? = nil, sampleRate: Int = 48_000, channels: Int = 1, buffer: Duration = .seconds(2)
    )
        throws(CaptureError)
    {
        guard (8_000...192_000).contains(sampleRate), channels == 1 || channels == 2 else {
            throw .invalidSettings(
                reason: "\(channels) channel(s) at \(sampleRate) Hz: use 1 or 2 channels, 8000...192000 Hz")
        }
        OpenALDevice.quietLibraryLog
        let format = channels == 1 ? AL_FORMAT_MONO16 : AL_FORMAT_STEREO16
        let frames = ALCsizei(max(1, buffer.inSeconds) * Double(sampleRate))
        guard let device = alcCaptureOpenDevice(name, ALCuint(sampleRate), format, frames) else {
            throw .cannotOpen(name: name, reason: "alcCaptureOpenDevice failed")
        }
        self.device = device
        self.sampleRate = sampleRate
        self.channels = channels
        self.name =
            alcGetString(device, ALC_CAPTURE_DEVICE_SPECIFIER).map { String(cString: $0) } ?? name
            ?? "default"
    }

    deinit {
        if isRunning { alcCaptureStop(device) }
        alcCaptureCloseDevice(device)
    }

    /// Starts collecting samples.
    public func start() {
        alcCaptureStart(device)
        isRunning = true
    }

    /// Stops collecting; what was collected can still be read.
    public func stop() {
        alcCaptureStop(device)
        isRunning = false
    }

    /// Frames waiting to be read.
    public var availableFrames: Int {
        var value: ALCint = 0
        alcGetIntegerv(device, ALC_CAPTURE_SAMPLES, 1, &value)
        return Int(value)
    }

    /// False once the device was unplugged or its server went away.
    public var isConnected: Bool {
        var value: ALCint = 1
        alcGetIntegerv(device, ALC_CONNECTED, 1, &value)
        return value != 0
    }

    /// Drains every frame that has arrived, as interleaved floats.
    /// - Parameter maxFrames: At most this many frames.
    /// - Returns: Samples in -1...1; empty when nothing arrived.
    public func read(maxFrames: Int = .max) -> [Float] {
        let frames = min(availableFrames, maxFrames)
        guard frames > 0 else { return [] }
        var raw = [Int16](repeating: 0, count: frames * channels)
        raw.withUnsafeMutableBytes { alcCaptureSamples(device, $0.baseAddress, ALCsizei(frames)) }
        return raw.map { Float($0) / 32_768 }
    }
}

/// Why recording could not start or go on.
public enum CaptureError: Error, CustomStringConvertible, Equatable {
    /// The device could not be opened.
    case cannotOpen(name: String?, reason: String)
    /// The rate or channel count is out of range.
    case invalidSettings(reason: String)
    /// The device went away while recording.
    case disconnected(name: String)

    /// A one-line message with what to check.
    public var description: String {
        switch self {
        case .cannotOpen(let name, let reason):
            let which = name.map { "capture device \"\($0)\"" } ?? "the default capture device"
            return "cannot open \(which) (\(reason)): is PulseAudio running and a source available? "
                + "List them with `soundstation devices`."
        case .invalidSettings(let reason): return "invalid capture settings: \(reason)"
        case .disconnected(let name):
            return "capture device \"\(name)\" was disconnected; what was recorded is kept"
        }
    }
}
