/// Where an ``AudioEngine`` sends what it mixes.
public enum AudioOutput: Sendable, Equatable, CustomStringConvertible {
    /// A real OpenAL playback device: the system default (`nil`) or one named by
    /// ``AudioEngine/playbackDevices()``, mixing in periods as short as `latency` asks.
    case device(name: String? = nil, latency: OutputLatency = .normal)
    /// OpenAL Soft's loopback device: nothing plays by itself; the caller pulls samples with
    /// ``AudioEngine/render(frames:)`` and the render clock drives every scheduled change.
    case offline(sampleRate: Int = 48_000, channels: Int = 2)
    /// Mixes in real time on a loopback device and throws the samples away: sounds start,
    /// end and send their events as on a device, but nothing is heard.
    case silent

    /// A short description for notices and logs.
    public var description: String {
        switch self {
        case .device(let name, _): name.map { "device \"\($0)\"" } ?? "default device"
        case .offline(let rate, let channels): "offline \(rate) Hz \(channels) ch"
        case .silent: "silent"
        }
    }

    /// The output named by `SOUNDSTATION_OUTPUT` (`device` or `silent`) and `SOUNDSTATION_DEVICE`,
    /// defaulting to the default device.
    /// - Parameter environment: The variables to read; the process environment by default.
    /// - Returns: The chosen output, or `nil` when `SOUNDSTATION_OUTPUT` holds an unknown value.
    public static func fromEnvironment(_ environment: [String: String]) -> AudioOutput? {
        let device = environment["SOUNDSTATION_DEVICE"].flatMap { $0.isEmpty ? nil : $0 }
        switch environment["SOUNDSTATION_OUTPUT"]?.lowercased() {
        case nil, "", "device": return .device(name: device)
        case "silent": return .silent
        default: return nil
        }
    }
}

/// How long a device's mixing periods are: the delay from a trigger to its first sound is about
/// three periods plus the sound server's own buffering.
public enum OutputLatency: Sendable, Equatable {
    /// OpenAL Soft's default: 20 ms periods (50 mixes a second); the least CPU.
    case normal
    /// About 2.5 ms periods in a 10 ms buffer on PulseAudio (4 ms periods elsewhere), for games that
    /// want a hit heard at once; more wake-ups. ``AudioEngine/mixingPeriod`` says what was granted.
    case low

    /// The `ALC_REFRESH` attribute: mixes per second.
    var refresh: Int32 {
        switch self {
        case .normal: 50
        case .low: 250
        }
    }
}
